import { cellLocation } from './contract-model';
import { traitsOfContractType, type TypeTraits } from './contract-types';
import { checkNameWords, SNAKE_CASE, type ConventionModel } from './convention-model';
import { finding, type Finding, type SourceLocation } from './finding';
import type { GateContext } from './gate-context';
import { traitsOfSpecType, type SpecType } from './openapi-model';

/*
 * convention: every contract name follows CONVENTION.md — each property, parameter and enum value of
 * openapi/ (at its YAML position) and each field, parameter and value row of CONTRACT.md (at its
 * cell). The word rules apply to every name; the type rules (boolean prefix, duration unit, `_at`
 * times, `_list` arrays) use the spec's type for spec names and the row's type cell for rows.
 */

const TIME_SUFFIX = '_at';
const LIST_SUFFIX = '_list';

export function checkConvention(context: GateContext): Finding[] {
  const convention = context.convention;
  if (convention === undefined) {
    return [];
  }
  const checker = new NameChecker(convention);
  const spec = context.openapi;
  for (const schema of spec.schemas.values()) {
    schema.enumValues?.forEach((value) =>
      checker.checkEnumValue(value.value, undefined, value.location),
    );
    for (const property of schema.properties) {
      checker.checkField(property.name, traitsOfSpecType(property.type), property.location);
      checker.checkSpecEnum(property.name, property.type);
    }
  }
  for (const operation of spec.operations) {
    for (const parameter of operation.parameters) {
      if (parameter.in === 'query' || parameter.in === 'path') {
        checker.checkField(parameter.name, traitsOfSpecType(parameter.type), parameter.location);
        checker.checkSpecEnum(parameter.name, parameter.type);
      }
    }
  }
  const contract = context.contract;
  const rows = [
    ...[...(contract?.schemaTables.values() ?? [])].flatMap((table) => table.rows),
    ...[...(contract?.parameterTables.values() ?? [])].flatMap((table) => table.rows),
  ];
  for (const row of rows) {
    const traits = row.type === undefined ? undefined : traitsOfContractType(row.type);
    checker.checkField(row.name, traits, cellLocation(row.nameCell));
  }
  for (const table of contract?.enumTables.values() ?? []) {
    for (const row of table.rows) {
      checker.checkEnumValue(row.value, table.fieldName, cellLocation(row.cell));
    }
  }
  return checker.findings;
}

class NameChecker {
  readonly findings: Finding[] = [];

  constructor(private readonly convention: ConventionModel) {}

  #report(location: SourceLocation, message: string, suggestion?: string): void {
    this.findings.push(finding('convention', location, message, suggestion));
  }

  #checkWords(name: string, location: SourceLocation): void {
    for (const problem of checkNameWords(name, this.convention)) {
      this.#report(location, problem.message, problem.suggestion);
    }
  }

  /** A field or parameter name: the word rules, then (if snake_case) the rules its type implies. */
  checkField(name: string, traits: TypeTraits | undefined, location: SourceLocation): void {
    this.#checkWords(name, location);
    if (traits === undefined || !SNAKE_CASE.test(name)) {
      return;
    }
    const { booleanPrefixes, unitSuffixes, durationWords, grandfatheredNames } = this.convention;
    const words = name.split('_');
    const unit = unitSuffixes.find((suffix) => name.endsWith(suffix));
    if (traits.isBoolean && !booleanPrefixes.some((prefix) => name.startsWith(prefix))) {
      this.#report(
        location,
        `boolean \`${name}\` must start with ${booleanPrefixes.map((prefix) => `\`${prefix}\``).join(', ')}`,
        `${booleanPrefixes[0]}${name}`,
      );
    }
    const durationWord = words.find((word) => durationWords.has(word));
    if (traits.isNumeric && durationWord !== undefined && unit === undefined) {
      this.#report(
        location,
        `\`${name}\` is a duration (\`${durationWord}\`) and must end in a unit: ` +
          unitSuffixes.map((suffix) => `\`${suffix}\``).join(', '),
        `${name}${unitSuffixes[0] ?? ''}`,
      );
    }
    if (unit !== undefined && !traits.isNumeric) {
      this.#report(location, `\`${name}\` ends in the unit \`${unit}\` but is not a number`);
    }
    if (traits.isDateTime && !name.endsWith(TIME_SUFFIX)) {
      this.#report(
        location,
        `date-time \`${name}\` must end in \`${TIME_SUFFIX}\``,
        `${name}${TIME_SUFFIX}`,
      );
    }
    if (name.endsWith(TIME_SUFFIX) && !traits.isDateTime) {
      this.#report(
        location,
        `\`${name}\` ends in \`${TIME_SUFFIX}\`, so it must be a date-time string`,
      );
    }
    if (traits.isArray && !name.endsWith(LIST_SUFFIX) && !grandfatheredNames.has(name)) {
      this.#report(
        location,
        `array \`${name}\` must end in \`${LIST_SUFFIX}\``,
        `${name}${LIST_SUFFIX}`,
      );
    }
  }

  /** An enum value: the word rules, and never the name of its own field. */
  checkEnumValue(value: string, fieldName: string | undefined, location: SourceLocation): void {
    this.#checkWords(value, location);
    this.#checkNotFieldName(value, fieldName, location);
  }

  /**
   * The values of an enum property (or of its array items). A named enum schema's values are
   * word-checked once, through the schema; here they are only compared with this field's name.
   */
  checkSpecEnum(fieldName: string, type: SpecType): void {
    if (type.kind === 'array') {
      this.checkSpecEnum(fieldName, type.items);
    }
    if (type.kind !== 'enum') {
      return;
    }
    for (const value of type.values) {
      if (type.schema === undefined) {
        this.#checkWords(value.value, value.location);
      }
      this.#checkNotFieldName(value.value, fieldName, value.location);
    }
  }

  #checkNotFieldName(value: string, fieldName: string | undefined, location: SourceLocation): void {
    if (value === fieldName) {
      this.#report(location, `enum value \`${value}\` equals its field's name`);
    }
  }
}
