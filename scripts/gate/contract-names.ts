import type { ContractModel } from './contract-model';
import { SNAKE_CASE } from './convention-model';
import type { OpenApiModel, SpecType } from './openapi-model';

/*
 * The wire names code is compared against. CONTRACT.md is the source of truth; the spec's names are
 * added only when they are snake_case, so that a spec property CONTRACT.md has not caught up with yet
 * is still known, while a drifted spec name (`timeoutMs`) never becomes a reference for code.
 */

export interface ContractNames {
  /** JSON field and query/path parameter names. */
  fieldNames: ReadonlySet<string>;
  enumValues: ReadonlySet<string>;
  /** Storage table names from CONTRACT.md's storage keys. */
  tableNames: ReadonlySet<string>;
  /**
   * Names of components (schemas, responses, …): `HealthSignal` and `InvalidRequest` are legitimate
   * type names in generated code, not camelCased `health_signal` / `invalid_request`.
   */
  componentNames: ReadonlySet<string>;
  /** operationId → how many leading arguments of the generated client method are wire data. */
  clientWireArgumentCounts: ReadonlyMap<string, number>;
}

export function collectContractNames(
  contract: ContractModel | undefined,
  spec: OpenApiModel,
): ContractNames {
  const fieldNames = new Set<string>();
  const enumValues = new Set<string>();
  const addSpecName = (target: Set<string>, name: string) => {
    if (SNAKE_CASE.test(name)) {
      target.add(name);
    }
  };
  for (const table of contract?.schemaTables.values() ?? []) {
    table.rows.forEach((row) => fieldNames.add(row.name));
  }
  for (const table of contract?.parameterTables.values() ?? []) {
    table.rows.forEach((row) => fieldNames.add(row.name));
  }
  for (const table of contract?.enumTables.values() ?? []) {
    table.rows.forEach((row) => enumValues.add(row.value));
  }
  for (const schema of spec.schemas.values()) {
    for (const property of schema.properties) {
      addSpecName(fieldNames, property.name);
      enumValuesOf(property.type).forEach((value) => addSpecName(enumValues, value));
    }
    schema.enumValues?.forEach((value) => addSpecName(enumValues, value.value));
  }
  const tableNames = new Set(
    (contract?.storageKeys ?? []).flatMap((row) => row.key.split(':').slice(1, 2)),
  );
  const clientWireArgumentCounts = new Map<string, number>();
  for (const operation of spec.operations) {
    operation.parameters.forEach((parameter) => addSpecName(fieldNames, parameter.name));
    if (operation.operationId !== undefined) {
      const places = new Set(operation.parameters.map((parameter) => parameter.in));
      clientWireArgumentCounts.set(
        operation.operationId,
        Number(places.has('path')) + Number(places.has('query')) + Number(operation.hasRequestBody),
      );
    }
  }
  return {
    fieldNames,
    enumValues,
    tableNames,
    componentNames: spec.componentNames,
    clientWireArgumentCounts,
  };
}

function enumValuesOf(type: SpecType): string[] {
  if (type.kind === 'enum') {
    return type.values.map((value) => value.value);
  }
  return type.kind === 'array' ? enumValuesOf(type.items) : [];
}
