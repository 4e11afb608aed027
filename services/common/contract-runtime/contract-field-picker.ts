import type { JsonSchema, OpenApiDocument } from './openapi-document';

/**
 * Returns a value reduced to what its schema declares: the value itself when it carries nothing
 * else, otherwise a copy (the input is never changed).
 */
export type FieldPicker<T> = (value: T) => T;

const LOCAL_SCHEMA_REFERENCE = '#/components/schemas/';

/**
 * Receivers tolerate unknown fields (CONTRACT.md §五; the router counts them), but a service must
 * not keep them: a field the contract does not define would land in storage under whatever name the
 * sender chose. A picker, derived from the schema in the service's OpenAPI document, reduces an
 * already validated value to the declared properties, at every depth (objects, arrays,
 * `$ref`, `allOf`/`anyOf`/`oneOf`, nullable wrappers). Pickers are compiled once per schema.
 */
export class ContractFieldPicker {
  readonly #compiled = new Map<string, FieldPicker<unknown>>();

  constructor(private readonly document: OpenApiDocument) {}

  /** The picker of component schema `schemaName` (throws when the document has no such schema). */
  picker<T>(schemaName: string): FieldPicker<T> {
    return this.#named(schemaName) as FieldPicker<T>;
  }

  /** The picker of `schema` itself, e.g. an operation's request body (`$ref`s resolved by name). */
  pickerOf<T>(schema: JsonSchema): FieldPicker<T> {
    return this.#compile(schema) as FieldPicker<T>;
  }

  #named(schemaName: string): FieldPicker<unknown> {
    const known = this.#compiled.get(schemaName);
    if (known !== undefined) return known;
    const schema = this.document.components?.schemas?.[schemaName];
    if (schema === undefined) {
      throw new Error(`${this.document.info.title} has no schema ${schemaName}`);
    }
    // Registered before compiling, so a schema that refers to itself resolves to this entry.
    let compiled: FieldPicker<unknown> = (value) => value;
    this.#compiled.set(schemaName, (value) => compiled(value));
    compiled = this.#compile(schema);
    this.#compiled.set(schemaName, compiled);
    return compiled;
  }

  #compile(schema: JsonSchema): FieldPicker<unknown> {
    const reference = schema.$ref;
    if (typeof reference === 'string' && reference.startsWith(LOCAL_SCHEMA_REFERENCE)) {
      const name = reference.slice(LOCAL_SCHEMA_REFERENCE.length);
      return (value) => this.#named(name)(value);
    }
    const branches = (['allOf', 'anyOf', 'oneOf'] as const).flatMap((keyword) =>
      Array.isArray(schema[keyword]) ? (schema[keyword] as JsonSchema[]) : [],
    );
    const properties = new Map<string, FieldPicker<unknown>>();
    for (const [name, child] of Object.entries((schema.properties ?? {}) as JsonSchema)) {
      properties.set(name, this.#compile(child as JsonSchema));
    }
    const items =
      schema.items && typeof schema.items === 'object'
        ? this.#compile(schema.items as JsonSchema)
        : undefined;
    // A branch only null can match (`enum: [null]`, the generator's nullable reference) declares
    // nothing: taken as "keep everything", it would let every unknown field of the value through.
    const branchPickers = branches
      .filter((branch) => !isNullOnly(branch))
      .map((branch) => this.#compile(branch));
    const isUnconstrained = properties.size === 0 && branchPickers.length === 0;
    return (value) => {
      if (value === null || typeof value !== 'object') return value;
      if (Array.isArray(value)) return items === undefined ? value : pickEach(value, items);
      if (isUnconstrained) return value;
      // A nullable reference (`anyOf: [$ref, null]`, `allOf: [$ref]`): the reference decides alone.
      if (properties.size === 0 && branchPickers.length === 1) return branchPickers[0](value);
      const source = value as Record<string, unknown>;
      if (branchPickers.length === 0 && hasOnlyDeclared(source, properties)) {
        return pickDeclared(source, properties);
      }
      const picked: Record<string, unknown> = {};
      for (const [name, pick] of properties) {
        if (name in source) picked[name] = pick(source[name]);
      }
      // A field declared by any branch is kept (the union, as the unknown-field count judges it).
      for (const pickBranch of branchPickers) {
        const fromBranch = pickBranch(value);
        if (fromBranch !== null && typeof fromBranch === 'object') {
          Object.assign(picked, fromBranch);
        }
      }
      return picked;
    };
  }
}

/*
 * Nearly every request carries only declared fields, and a report carries hundreds of nested
 * objects (results, links): a value with nothing to drop is returned as it is, and an object or
 * array is copied only where something below it was dropped — no garbage on the hot path.
 */

function isNullOnly(schema: JsonSchema): boolean {
  return Array.isArray(schema.enum) && schema.enum.every((value) => value === null);
}

function hasOnlyDeclared(
  source: Record<string, unknown>,
  properties: ReadonlyMap<string, FieldPicker<unknown>>,
): boolean {
  for (const name in source) if (!properties.has(name)) return false;
  return true;
}

function pickDeclared(
  source: Record<string, unknown>,
  properties: ReadonlyMap<string, FieldPicker<unknown>>,
): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const name in source) {
    const child = source[name];
    const picked = (properties.get(name) as FieldPicker<unknown>)(child);
    if (picked !== child) {
      copy ??= { ...source };
      copy[name] = picked;
    }
  }
  return copy ?? source;
}

function pickEach(list: readonly unknown[], pick: FieldPicker<unknown>): readonly unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < list.length; index += 1) {
    const picked = pick(list[index]);
    if (picked !== list[index]) {
      copy ??= list.slice();
      copy[index] = picked;
    }
  }
  return copy ?? list;
}
