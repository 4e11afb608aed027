import type { JsonSchema } from './openapi-document';

/**
 * Lists the fields of a request that its schema does not declare, as paths such as
 * `result_list[].link_list[].colour`.
 *
 * Receivers must accept unknown fields (a newer sender may add optional ones), but an unknown
 * field is also what a drifted name looks like on the wire — `timeoutMs` instead of `timeout_ms`
 * is silently ignored and the default wins. Counting them makes that drift visible.
 */
export function findUnknownFields(
  schema: JsonSchema,
  value: unknown,
  resolveReference: (reference: string) => JsonSchema | undefined,
): string[] {
  const found = new Set<string>();
  walk(schema, value, '', found, resolveReference, 0);
  return [...found];
}

const maximumDepth = 32;

/** What a schema says about a value, worked out once per schema object (bodies repeat shapes). */
interface SchemaShape {
  /** The union of declared properties across allOf/anyOf branches. */
  declared: Map<string, JsonSchema>;
  describesObject: boolean;
  itemSchemas: JsonSchema[];
}

const shapes = new WeakMap<JsonSchema, SchemaShape>();

function shapeOf(
  schema: JsonSchema,
  resolveReference: (reference: string) => JsonSchema | undefined,
): SchemaShape {
  const known = shapes.get(schema);
  if (known !== undefined) return known;
  const resolved = expand(schema, resolveReference);
  const declared = new Map<string, JsonSchema>();
  let describesObject = false;
  for (const candidate of resolved) {
    if (candidate.properties && typeof candidate.properties === 'object') {
      describesObject = true;
      for (const [name, child] of Object.entries(candidate.properties as JsonSchema)) {
        if (!declared.has(name)) declared.set(name, child as JsonSchema);
      }
    }
  }
  const itemSchemas = resolved.flatMap((candidate) =>
    candidate.items && typeof candidate.items === 'object' ? [candidate.items as JsonSchema] : [],
  );
  const shape = { declared, describesObject, itemSchemas };
  shapes.set(schema, shape);
  return shape;
}

function walk(
  schema: JsonSchema | undefined,
  value: unknown,
  path: string,
  found: Set<string>,
  resolveReference: (reference: string) => JsonSchema | undefined,
  depth: number,
): void {
  if (!schema || value === null || value === undefined || depth > maximumDepth) return;
  if (typeof value !== 'object') return;
  const shape = shapeOf(schema, resolveReference);

  if (Array.isArray(value)) {
    for (const item of value) {
      for (const itemSchema of shape.itemSchemas) {
        walk(itemSchema, item, `${path}[]`, found, resolveReference, depth + 1);
      }
    }
    return;
  }

  // A field is unknown only when no branch declares it.
  if (!shape.describesObject) return;
  for (const name in value as Record<string, unknown>) {
    const childSchema = shape.declared.get(name);
    if (childSchema === undefined) {
      found.add(path ? `${path}.${name}` : name);
    } else {
      const child = (value as Record<string, unknown>)[name];
      if (child !== null && typeof child === 'object') {
        walk(
          childSchema,
          child,
          path ? `${path}.${name}` : name,
          found,
          resolveReference,
          depth + 1,
        );
      }
    }
  }
}

/** Flattens $ref, allOf and anyOf into the list of concrete schemas that may apply. */
function expand(
  schema: JsonSchema,
  resolveReference: (reference: string) => JsonSchema | undefined,
  depth = 0,
): JsonSchema[] {
  if (depth > maximumDepth) return [];
  if (typeof schema.$ref === 'string') {
    const target = resolveReference(schema.$ref);
    return target ? expand(target, resolveReference, depth + 1) : [];
  }
  const parts: JsonSchema[] = [schema];
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches)) {
      for (const branch of branches as JsonSchema[]) {
        parts.push(...expand(branch, resolveReference, depth + 1));
      }
    }
  }
  return parts;
}
