import type { JsonSchema } from './openapi-document';

/**
 * The form of a normalized body schema that the quick check (`CompiledSchema.accepts`) compiles:
 * the same verdict on every value, reached without building error objects for branches that are
 * expected to fail.
 *
 * Even when it stops at the first error, ajv records one error object (its instance path built by
 * string concatenation) for every failing branch of `anyOf` and `oneOf`, because a later branch
 * may still pass: a frontier report's result allocated ~1.3 KB in such objects per URL — its
 * fetch_status variants that do not apply, and every nullable field holding null.
 *
 * - A nullable wrapper `anyOf: [S, {type: 'null'}]` becomes `if: {type: 'null'}, else: S`. ajv
 *   checks an `if` without recording errors; null passes, anything else must satisfy S — as before.
 * - A `oneOf` of an object schema whose variants each pin one property to their own string values
 *   (`enum` or `const`, no value in two variants), the property required, gets
 *   `discriminator: {propertyName}`:
 *   ajv (option `discriminator`) then checks only the variant the property's value names. Same
 *   verdict: a value naming a variant fails every other variant on that property, so exactly one
 *   can pass; a value naming none, or not a string, passes none.
 *
 * A branch holding a `default` (itself or through a `$ref`) stays as it was: ajv fills no defaults
 * inside `anyOf`/`oneOf`, but does inside `else` and a discriminated variant, so rewriting it could
 * change the value checked, not only the cost of the check.
 *
 * `definitions` are the schemas `$ref`s point to (`<documentId>#/definitions/<Name>`), read to
 * resolve variants and to look for defaults; a reference this cannot resolve counts as holding one.
 */
export function quickCheckForm(
  schema: unknown,
  definitions: Readonly<Record<string, unknown>>,
  documentId: string,
): unknown {
  const resolver = new ReferenceResolver(definitions, documentId);
  return rewrite(schema, resolver);
}

/** Every definition in its quick-check form (the quick ajv's copy of the document's schemas). */
export function quickCheckDefinitions(
  definitions: Readonly<Record<string, unknown>>,
  documentId: string,
): Record<string, unknown> {
  const resolver = new ReferenceResolver(definitions, documentId);
  return Object.fromEntries(
    Object.entries(definitions).map(([name, schema]) => [name, rewrite(schema, resolver)]),
  );
}

const NULL_ONLY: JsonSchema = { type: 'null' };

function rewrite(schema: unknown, resolver: ReferenceResolver): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewrite(item, resolver));
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as JsonSchema;
  const result: JsonSchema = {};
  for (const [keyword, value] of Object.entries(source)) {
    // `properties` maps names to schemas; `enum`, `const`, `default` and `required` hold data.
    if (keyword === 'properties' && value !== null && typeof value === 'object') {
      result.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, child]) => [
          name,
          rewrite(child, resolver),
        ]),
      );
    } else if (DATA_KEYWORDS.has(keyword)) {
      result[keyword] = value;
    } else {
      result[keyword] = rewrite(value, resolver);
    }
  }
  const branchIndex = nullableBranchIndexOf(source);
  if (
    branchIndex !== undefined &&
    !resolver.holdsDefault((source.anyOf as unknown[])[branchIndex])
  ) {
    // The branch as rewritten above, with the rest of the schema.
    result.else = (result.anyOf as unknown[])[branchIndex];
    result.if = NULL_ONLY;
    delete result.anyOf;
  }
  const tag = discriminatingPropertyOf(source, resolver);
  if (tag !== undefined) result.discriminator = { propertyName: tag };
  return result;
}

/** Keywords whose values are data, never schemas: copied as they are. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'required', 'examples', 'pattern']);

/** Where S stands in `anyOf: [S, {type: 'null'}]` (either order), else undefined. */
function nullableBranchIndexOf(schema: JsonSchema): number | undefined {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const nullIndex = branches.findIndex(isNullOnly);
  if (nullIndex === -1 || isNullOnly(branches[1 - nullIndex])) return undefined;
  return 1 - nullIndex;
}

function isNullOnly(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return false;
  const keys = Object.keys(schema);
  return keys.length === 1 && (schema as JsonSchema).type === 'null';
}

/**
 * The property every variant of `schema.oneOf` pins to values of its own, required by the
 * schema or by every variant — the one a discriminator can dispatch on — or undefined.
 */
function discriminatingPropertyOf(
  schema: JsonSchema,
  resolver: ReferenceResolver,
): string | undefined {
  const variants = schema.oneOf;
  if (!Array.isArray(variants) || variants.length < 2) return undefined;
  // ajv's discriminator skips a value that is not an object, and the oneOf with it: only a schema
  // that refuses every other value itself gives the same verdict on them.
  if (schema.type !== 'object' || schema.discriminator !== undefined) return undefined;
  const resolved = variants.map((variant) => resolver.resolve(variant));
  if (resolved.some((variant) => variant === undefined || resolver.holdsDefault(variant))) {
    return undefined;
  }
  const variantSchemas = resolved as JsonSchema[];
  const first = variantSchemas[0].properties;
  if (first === null || typeof first !== 'object') return undefined;
  return Object.keys(first).find((name) => {
    const isRequired =
      requires(schema, name) || variantSchemas.every((variant) => requires(variant, name));
    if (!isRequired) return false;
    const seen = new Set<string>();
    return variantSchemas.every((variant) => {
      const values = pinnedValuesOf(variant, name);
      if (values === undefined) return false;
      for (const value of values) {
        if (seen.has(value)) return false;
        seen.add(value);
      }
      return true;
    });
  });
}

function requires(schema: JsonSchema, name: string): boolean {
  return Array.isArray(schema.required) && schema.required.includes(name);
}

/** The string values `variant.properties[name]` allows through `const` or `enum`, if it pins any. */
function pinnedValuesOf(variant: JsonSchema, name: string): string[] | undefined {
  const property = (variant.properties as Record<string, unknown> | undefined)?.[name];
  if (property === null || typeof property !== 'object') return undefined;
  const { const: constant, enum: allowed } = property as JsonSchema;
  const values = constant !== undefined ? [constant] : Array.isArray(allowed) ? allowed : undefined;
  if (values === undefined || values.length === 0) return undefined;
  return values.every((value) => typeof value === 'string') ? (values as string[]) : undefined;
}

/** Reads `$ref`s into the document's definitions. */
class ReferenceResolver {
  readonly #prefix: string;
  readonly #defaultHolders = new Map<string, boolean>();

  constructor(
    private readonly definitions: Readonly<Record<string, unknown>>,
    documentId: string,
  ) {
    this.#prefix = `${documentId}#/definitions/`;
  }

  /**
   * A schema, or what it refers to when it is a bare `$ref` (followed as often as it leads to
   * another); undefined when unresolvable. A `$ref` beside other rules is not followed — as ajv's
   * discriminator, which reads such a variant's own properties.
   */
  resolve(schema: unknown): JsonSchema | undefined {
    let current = schema;
    for (let hops = 0; hops < 32; hops += 1) {
      if (current === null || typeof current !== 'object' || Array.isArray(current))
        return undefined;
      const reference = (current as JsonSchema).$ref;
      if (reference === undefined) return current as JsonSchema;
      if (typeof reference !== 'string' || Object.keys(current).length !== 1) return undefined;
      const name = this.#definitionNameOf(reference);
      if (name === undefined) return undefined;
      current = this.definitions[name];
    }
    return undefined;
  }

  /** Whether a `default` appears in `schema`, in what its `$ref`s point to, or in an unknown one. */
  holdsDefault(schema: unknown): boolean {
    return this.#holdsDefault(schema, new Set());
  }

  #holdsDefault(schema: unknown, visiting: Set<string>): boolean {
    if (Array.isArray(schema)) return schema.some((item) => this.#holdsDefault(item, visiting));
    if (schema === null || typeof schema !== 'object') return false;
    const source = schema as JsonSchema;
    if ('default' in source) return true;
    if (typeof source.$ref === 'string' && this.#referenceHoldsDefault(source.$ref, visiting)) {
      return true;
    }
    return Object.entries(source).some(
      ([keyword, value]) =>
        keyword !== '$ref' &&
        (keyword === 'properties'
          ? Object.values((value ?? {}) as JsonSchema).some((child) =>
              this.#holdsDefault(child, visiting),
            )
          : !DATA_KEYWORDS.has(keyword) && this.#holdsDefault(value, visiting)),
    );
  }

  #referenceHoldsDefault(reference: string, visiting: Set<string>): boolean {
    const name = this.#definitionNameOf(reference);
    if (name === undefined || !(name in this.definitions)) return true;
    const known = this.#defaultHolders.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return false; // a cycle: its other paths are looked at where it began
    visiting.add(name);
    const holds = this.#holdsDefault(this.definitions[name], visiting);
    visiting.delete(name);
    this.#defaultHolders.set(name, holds);
    return holds;
  }

  #definitionNameOf(reference: string): string | undefined {
    return reference.startsWith(this.#prefix) ? reference.slice(this.#prefix.length) : undefined;
  }
}
