/*
 * The type vocabulary of CONTRACT.md's `type` cells, and the few traits of a type the naming rules
 * care about. Both the CONTRACT.md rows and the OpenAPI properties are described in these terms, so
 * a mismatch can be shown to the reader as the cell text that would agree with the spec.
 */

export const SCALAR_TYPES = [
  'string',
  'integer',
  'number',
  'boolean',
  'string (date-time)',
] as const;

export type ScalarType = (typeof SCALAR_TYPES)[number];

export type ContractType =
  | { kind: 'scalar'; scalar: ScalarType }
  /** `enum <field>` or `enum <field> (v1, v2)`: the field's value table, or only that subset. */
  | { kind: 'enum'; field: string; subset: string[] | undefined }
  /** `object <Schema>`; as an array item also an enum schema (`array of FailReason`). */
  | { kind: 'object'; schema: string }
  | { kind: 'array'; items: ContractType };

const ENUM = /^enum\s+([A-Za-z0-9_]+)(?:\s*\(([^)]*)\))?$/;
const OBJECT = /^object\s+([A-Za-z][A-Za-z0-9_]*)$/;
const ARRAY = /^array\s+of\s+(.+)$/;
const SCHEMA_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

function isScalarType(text: string): text is ScalarType {
  return (SCALAR_TYPES as readonly string[]).includes(text);
}

/** Parses a `type` cell; undefined when it is outside the vocabulary. */
export function parseContractType(cellText: string): ContractType | undefined {
  const text = cellText.trim().replace(/`/g, '').replace(/\s+/g, ' ');
  if (isScalarType(text)) {
    return { kind: 'scalar', scalar: text };
  }
  const enumMatch = ENUM.exec(text);
  if (enumMatch) {
    const subset = enumMatch[2]
      ?.split(',')
      .map((value) => value.trim())
      .filter(Boolean);
    return { kind: 'enum', field: enumMatch[1], subset };
  }
  const objectMatch = OBJECT.exec(text);
  if (objectMatch) {
    return { kind: 'object', schema: objectMatch[1] };
  }
  const arrayMatch = ARRAY.exec(text);
  if (arrayMatch) {
    const itemText = arrayMatch[1];
    if (isScalarType(itemText)) {
      return { kind: 'array', items: { kind: 'scalar', scalar: itemText } };
    }
    if (SCHEMA_NAME.test(itemText)) {
      return { kind: 'array', items: { kind: 'object', schema: itemText } };
    }
  }
  return undefined;
}

export function formatContractType(type: ContractType): string {
  switch (type.kind) {
    case 'scalar':
      return type.scalar;
    case 'enum':
      return type.subset === undefined
        ? `enum ${type.field}`
        : `enum ${type.field} (${type.subset.join(', ')})`;
    case 'object':
      return `object ${type.schema}`;
    case 'array':
      return `array of ${type.items.kind === 'object' ? type.items.schema : formatContractType(type.items)}`;
  }
}

/** What CONVENTION.md's type-dependent rules (booleans, units, times, lists) need to know. */
export interface TypeTraits {
  isBoolean: boolean;
  isNumeric: boolean;
  isDateTime: boolean;
  isArray: boolean;
}

export function traitsOfContractType(type: ContractType): TypeTraits {
  return {
    isBoolean: type.kind === 'scalar' && type.scalar === 'boolean',
    isNumeric: type.kind === 'scalar' && (type.scalar === 'integer' || type.scalar === 'number'),
    isDateTime: type.kind === 'scalar' && type.scalar === 'string (date-time)',
    isArray: type.kind === 'array',
  };
}
