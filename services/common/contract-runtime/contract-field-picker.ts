import type { JsonSchema, OpenApiDocument } from './openapi-document';

/** Returns a copy of a value reduced to what its schema declares. */
export type FieldPicker<T> = (value: T) => T;

const LOCAL_SCHEMA_REFERENCE = '#/components/schemas/';

/**
 * Receivers tolerate unknown fields (CONTRACT.md §五; the router counts them), but a service must
 * not keep them: a field the contract does not define would land in storage under whatever name the
 * sender chose. A picker, derived from the schema in the service's OpenAPI document, copies an
 * already validated value keeping only the declared properties, at every depth (objects, arrays,
 * `$ref`, `allOf`/`anyOf`/`oneOf`, nullable wrappers). Pickers are compiled once per schema.
 */
export class ContractFieldPicker {
  readonly #compiled = new Map<string, FieldPicker<unknown>>();

  constructor(private readonly document: OpenApiDocument) {}

  /** The picker of component schema `schemaName` (throws when the document has no such schema). */
  picker<T>(schemaName: string): FieldPicker<T> {
    return this.#named(schemaName) as FieldPicker<T>;
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
    const branchPickers = branches.map((branch) => this.#compile(branch));
    return (value) => {
      if (value === null || typeof value !== 'object') return value;
      if (Array.isArray(value)) return items === undefined ? value : value.map(items);
      const source = value as Record<string, unknown>;
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
      return properties.size === 0 && branchPickers.length === 0 ? value : picked;
    };
  }
}
