import {
  cellLocation,
  CONTRACT_FILE,
  type ContractModel,
  type EnumTable,
  type FieldRow,
  type ParameterRow,
} from './contract-model';
import { formatContractType, type ContractType } from './contract-types';
import { SNAKE_CASE } from './convention-model';
import { describeLocation, finding, type Finding, type SourceLocation } from './finding';
import type { GateContext } from './gate-context';
import type { MarkdownCell } from './markdown-tables';
import { closestName } from './name-similarity';
import { contractTypeOf, type SpecEnumValue, type SpecType } from './openapi-model';

/*
 * contract-coverage: CONTRACT.md and openapi/ describe the same names and shapes. Every property of
 * every component schema and every query/path parameter has a row, every row has a property or
 * parameter, and type, required, nullable and enum values agree. Where one side has a name the other
 * lacks and a similar unmatched name exists on the other side, the two are reported as one rename:
 * at the spec (CONTRACT.md is the source of truth for names), unless only the spec's name follows
 * the convention, in which case the CONTRACT.md row is the one to fix. Attribute mismatches are
 * reported at the CONTRACT.md cell, which names the exact attribute, with the spec's location in the
 * message. A row marked deprecated (its note starts with `deprecated`) and the spec's
 * `deprecated: true` go together.
 */

/** A property or parameter of the spec, seen as a member of a table. */
interface SpecMember {
  name: string;
  location: SourceLocation;
  type: SpecType;
  isRequired: boolean;
  isNullable: boolean | undefined;
  in: string | undefined;
  isDeprecated: boolean;
}

/** How messages name a spec member: `subject` alone, or `where` with its location. */
interface MemberNames {
  subject: string;
  where: string;
}

/** A row of a schema or parameter table. */
interface ContractRow {
  name: string;
  nameCell: MarkdownCell;
  typeCell: MarkdownCell;
  type: ContractType | undefined;
  requiredCell: MarkdownCell;
  isRequired: boolean | undefined;
  nullableCell: MarkdownCell | undefined;
  isNullable: boolean | undefined;
  inCell: MarkdownCell | undefined;
  isDeprecated: boolean;
}

export function checkContractCoverage(context: GateContext): Finding[] {
  const contract = context.contract;
  if (contract === undefined) {
    return [];
  }
  return new CoverageCheck(contract, context).run();
}

class CoverageCheck {
  readonly #findings: Finding[] = [];
  /** Enum tables some row refers to; the others are reported as unused. */
  readonly #usedEnumTables = new Set<string>();

  constructor(
    private readonly contract: ContractModel,
    private readonly context: GateContext,
  ) {}

  run(): Finding[] {
    this.#checkSchemas();
    this.#checkParameters();
    this.#checkEnumTables();
    this.#checkDeclaredErrorCodes();
    return this.#findings;
  }

  #report(location: SourceLocation, message: string, suggestion?: string): void {
    this.#findings.push(finding('contract-coverage', location, message, suggestion));
  }

  #checkSchemas(): void {
    const schemas = this.context.openapi.schemas;
    for (const schema of schemas.values()) {
      if (schema.properties.length === 0) {
        continue;
      }
      const table = this.contract.schemaTables.get(schema.name);
      if (table === undefined) {
        const count = plural(schema.properties.length, 'property', 'properties');
        this.#report(
          schema.location,
          `schema \`${schema.name}\` has ${count} but ${CONTRACT_FILE} has no ` +
            `"#### Schema \`${schema.name}\`" table; add one with a row per property`,
        );
        continue;
      }
      this.#compareMembers(
        `schema \`${schema.name}\``,
        `"#### Schema \`${schema.name}\`"`,
        schema.properties.map((property) => ({ ...property, in: undefined })),
        table.rows.map(fieldRowAsContractRow),
      );
    }
    for (const table of this.contract.schemaTables.values()) {
      const schema = schemas.get(table.schemaName);
      if (schema === undefined || schema.properties.length === 0) {
        const objectSchemas = [...schemas.values()]
          .filter((candidate) => candidate.properties.length > 0)
          .map((candidate) => candidate.name);
        this.#report(
          table.location,
          `"#### Schema \`${table.schemaName}\`" binds no component schema with properties in openapi/`,
          closestName(table.schemaName, objectSchemas),
        );
      }
    }
  }

  #checkParameters(): void {
    const operations = this.context.openapi.operations;
    for (const operation of operations) {
      const parameters = operation.parameters.filter(
        (parameter) => parameter.in === 'query' || parameter.in === 'path',
      );
      const table = this.contract.parameterTables.get(operation.key);
      if (table === undefined) {
        for (const parameter of parameters) {
          this.#report(
            parameter.location,
            `${parameter.in} parameter \`${parameter.name}\` of ${operation.key} has no row: ` +
              `${CONTRACT_FILE} has no "#### Parameters \`${operation.key}\`" table`,
          );
        }
        continue;
      }
      this.#compareMembers(
        `${operation.key}`,
        `"#### Parameters \`${operation.key}\`"`,
        parameters.map((parameter) => ({ ...parameter, isNullable: undefined })),
        table.rows.map(parameterRowAsContractRow),
      );
    }
    const keys = operations.map((operation) => operation.key);
    for (const table of this.contract.parameterTables.values()) {
      if (!keys.includes(table.operationKey)) {
        this.#report(
          table.location,
          `"#### Parameters \`${table.operationKey}\`" binds no operation in openapi/`,
          closestName(table.operationKey, keys),
        );
      }
    }
  }

  #compareMembers(
    owner: string,
    tableName: string,
    members: SpecMember[],
    rows: ContractRow[],
  ): void {
    const rowsByName = new Map(rows.map((row) => [row.name, row]));
    const unmatchedRows = new Set(
      rows.filter((row) => !members.some((member) => member.name === row.name)),
    );
    for (const member of members) {
      const row = rowsByName.get(member.name);
      if (row !== undefined) {
        this.#compareAttributes(owner, member, row);
        continue;
      }
      const partnerName = closestName(
        member.name,
        [...unmatchedRows].map((candidate) => candidate.name),
      );
      const partner = partnerName === undefined ? undefined : rowsByName.get(partnerName);
      if (partner !== undefined) {
        unmatchedRows.delete(partner);
        this.#reportRename(owner, tableName, member, partner);
        continue;
      }
      this.#report(
        member.location,
        `\`${member.name}\` of ${owner} has no row in ${CONTRACT_FILE}'s ${tableName} table; ` +
          'add the row (or remove the name from the spec)',
      );
    }
    for (const row of unmatchedRows) {
      this.#report(
        cellLocation(row.nameCell),
        `row \`${row.name}\` has no counterpart in ${owner} in openapi/; add it to the spec or drop the row`,
      );
    }
  }

  /** One finding for a name spelled differently on the two sides, at the side to fix. */
  #reportRename(owner: string, tableName: string, member: SpecMember, row: ContractRow): void {
    const isContractSideWrong = SNAKE_CASE.test(member.name) && !SNAKE_CASE.test(row.name);
    if (isContractSideWrong) {
      this.#report(
        cellLocation(row.nameCell),
        `row \`${row.name}\` of ${tableName} matches no name of ${owner}; the spec has ` +
          `\`${member.name}\` at ${describeLocation(member.location)}`,
        member.name,
      );
      return;
    }
    this.#report(
      member.location,
      `\`${member.name}\` of ${owner} has no row in ${CONTRACT_FILE}; ${tableName} has ` +
        `\`${row.name}\` (${describeLocation(cellLocation(row.nameCell))}) — wire names are exactly ` +
        `those of ${CONTRACT_FILE}`,
      row.name,
    );
  }

  #compareAttributes(owner: string, member: SpecMember, row: ContractRow): void {
    const subject = `${owner}'s \`${member.name}\``;
    const where = `${subject} (${describeLocation(member.location)})`;
    if (row.type !== undefined) {
      this.#compareType({ subject, where }, member, row, row.type);
    }
    this.#compareCell(
      row.requiredCell,
      'required',
      yesNo(row.isRequired),
      yesNo(member.isRequired),
      where,
    );
    this.#compareCell(
      row.nullableCell,
      'nullable',
      yesNo(row.isNullable),
      yesNo(member.isNullable),
      where,
    );
    this.#compareCell(row.inCell, '`in`', row.inCell?.text, member.in, where);
    if (row.isDeprecated !== member.isDeprecated) {
      this.#report(
        cellLocation(row.nameCell),
        row.isDeprecated
          ? `row \`${row.name}\` is marked deprecated here but ${where} lacks \`deprecated: true\``
          : `${where} is \`deprecated: true\` but this row's note does not start with \`deprecated\``,
      );
    }
  }

  /** Reports a cell whose value differs from the spec's; undefined on either side means n/a. */
  #compareCell(
    cell: MarkdownCell | undefined,
    attribute: string,
    contractValue: string | undefined,
    specValue: string | undefined,
    where: string,
  ): void {
    if (cell === undefined || contractValue === undefined || specValue === undefined) {
      return;
    }
    if (contractValue !== specValue) {
      this.#report(
        cellLocation(cell),
        `${attribute} is \`${contractValue}\` here but \`${specValue}\` for ${where}`,
        specValue,
      );
    }
  }

  #compareType(names: MemberNames, member: SpecMember, row: ContractRow, type: ContractType): void {
    const { where } = names;
    if (type.kind === 'enum') {
      this.#usedEnumTables.add(type.field);
    }
    if (!typesAgree(type, member.type)) {
      const specType = contractTypeOf(member.type, member.name);
      this.#report(
        cellLocation(row.typeCell),
        `type is \`${row.typeCell.text}\` here but ${where} is ` +
          (specType === undefined
            ? describeUnbindable(member.type)
            : `\`${formatContractType(specType)}\``),
        specType === undefined ? undefined : formatContractType(specType),
      );
      return;
    }
    const hasOwnTable = this.contract.enumTables.has(row.name);
    if (hasOwnTable && !(type.kind === 'enum' && type.field === row.name)) {
      this.#report(
        cellLocation(row.typeCell),
        `\`${row.name}\` has an "#### Enum \`${row.name}\`" table, and one field name is one enum ` +
          `everywhere: this field must be \`enum ${row.name}\``,
        `enum ${row.name}`,
      );
    }
    if (type.kind === 'enum' && member.type.kind === 'enum') {
      // A named enum schema's values are written once; name them by the schema, so the finding on
      // a bad value is the same whichever property led to it.
      const valueOwner =
        member.type.schema === undefined ? names.subject : `enum schema \`${member.type.schema}\``;
      this.#compareEnum({ ...names, valueOwner }, member, row, type, member.type.values);
    }
  }

  #compareEnum(
    { subject, where, valueOwner }: MemberNames & { valueOwner: string },
    member: SpecMember,
    row: ContractRow,
    type: Extract<ContractType, { kind: 'enum' }>,
    specValues: SpecEnumValue[],
  ): void {
    const table = this.contract.enumTables.get(type.field);
    if (table === undefined) {
      this.#report(
        cellLocation(row.typeCell),
        `${CONTRACT_FILE} has no "#### Enum \`${type.field}\`" table for this row's values`,
      );
      return;
    }
    const tableValues = table.rows.map((entry) => entry.value);
    const declared = type.subset ?? tableValues;
    const carried = specValues.filter((value) => value.value !== 'null');
    const carriedNames = carried.map((value) => value.value);
    const agreeing = tableValues.filter((value) => carriedNames.includes(value));
    const corrected = formatContractType({
      kind: 'enum',
      field: type.field,
      subset: agreeing.length === tableValues.length ? undefined : agreeing,
    });
    for (const value of carried) {
      if (!tableValues.includes(value.value)) {
        this.#report(
          value.location,
          `enum value \`${value.value}\` of ${valueOwner} is not in ` +
            `${CONTRACT_FILE}'s "#### Enum \`${type.field}\`" (${describeLocation(table.location)})`,
          closestName(value.value, tableValues),
        );
      } else if (!declared.includes(value.value)) {
        this.#report(
          cellLocation(row.typeCell),
          `${where} carries \`${value.value}\`, which this row's subset does not list`,
          corrected,
        );
      }
    }
    for (const value of type.subset ?? []) {
      if (!tableValues.includes(value)) {
        this.#report(
          cellLocation(row.typeCell),
          `subset value \`${value}\` is not in "#### Enum \`${type.field}\`"`,
          closestName(value, tableValues),
        );
      }
    }
    const missing = declared.filter(
      (value) => tableValues.includes(value) && !carriedNames.includes(value),
    );
    if (missing.length > 0) {
      const list = missing.map((value) => `\`${value}\``).join(', ');
      if (type.subset === undefined) {
        this.#report(
          member.location,
          `${subject} lacks ${list} of "#### Enum \`${type.field}\`"; add ` +
            `${missing.length === 1 ? 'it' : 'them'}, or declare the subset in ${describeLocation(cellLocation(row.typeCell))}`,
          corrected,
        );
      } else {
        this.#report(
          cellLocation(row.typeCell),
          `this row lists ${list}, which ${where} does not carry`,
          corrected,
        );
      }
    }
  }

  #checkEnumTables(): void {
    for (const table of this.contract.enumTables.values()) {
      if (!this.#usedEnumTables.has(table.fieldName)) {
        this.#report(
          table.location,
          `no row uses "#### Enum \`${table.fieldName}\`"; bind it with \`enum ${table.fieldName}\` ` +
            'in the rows of that field, or drop it',
        );
      }
    }
  }

  /** `x-error-codes` lists name error_code values; each must be one of the contract's. */
  #checkDeclaredErrorCodes(): void {
    const table: EnumTable | undefined = this.contract.enumTables.get('error_code');
    if (table === undefined) {
      return;
    }
    const values = table.rows.map((entry) => entry.value);
    for (const code of this.context.openapi.declaredErrorCodes) {
      if (!values.includes(code.value)) {
        this.#report(
          code.location,
          `x-error-codes lists \`${code.value}\`, which is not in ${CONTRACT_FILE}'s ` +
            `"#### Enum \`error_code\`" (${describeLocation(table.location)})`,
          closestName(code.value, values),
        );
      }
    }
  }
}

function fieldRowAsContractRow(row: FieldRow): ContractRow {
  return { ...row, inCell: undefined };
}

function parameterRowAsContractRow(row: ParameterRow): ContractRow {
  return { ...row, nullableCell: undefined, isNullable: undefined };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function yesNo(value: boolean | undefined): string | undefined {
  return value === undefined ? undefined : value ? 'yes' : 'no';
}

function describeUnbindable(type: SpecType): string {
  if (type.kind === 'unknown') {
    return `${type.description}, which the contract vocabulary cannot describe`;
  }
  return 'an inline object, which no table can bind';
}

export function typesAgree(row: ContractType, spec: SpecType): boolean {
  switch (row.kind) {
    case 'scalar':
      return spec.kind === 'scalar' && spec.scalar === row.scalar;
    case 'enum':
      return spec.kind === 'enum';
    case 'object':
      return spec.kind === 'object' && spec.schema === row.schema;
    case 'array':
      return spec.kind === 'array' && itemsAgree(row.items, spec.items);
  }
}

/** `array of FailReason` names an enum schema as item, which `object <Schema>` alone may not. */
function itemsAgree(row: ContractType, spec: SpecType): boolean {
  if (row.kind === 'object') {
    return (spec.kind === 'object' || spec.kind === 'enum') && spec.schema === row.schema;
  }
  return typesAgree(row, spec);
}
