import type { JsonSchema } from './openapi-document';
import { VIOLATION_ERROR_CODE_KEYWORD } from './variant-violations';

/**
 * Turns an OpenAPI 3.0 schema into plain JSON Schema (draft-07) for ajv.
 *
 * - `nullable: true` becomes `anyOf: [<schema>, {type: 'null'}]`. OpenAPI 3.0 writes a nullable
 *   reference as `allOf: [$ref] + nullable`, which a JSON Schema validator would otherwise reject
 *   for null (the referenced object schema says `type: object`). `default` and `description` move
 *   to the wrapper so ajv's useDefaults still applies them.
 * - `null` listed in a nullable enum is dropped from the inner enum (the wrapper admits it).
 * - `example` and vendor extensions (`x-…`) are removed: they are documentation, not rules —
 *   except `x-violation-error-code`, which the router reads off a failing schema.
 * - A nullable schema whose enum is only `null` (OpenAPI 3.0's "must be null") becomes
 *   `{type: 'null'}`.
 * - Local references `#/components/schemas/X` are rewritten to `<documentId>#/definitions/X`.
 */
export function normalizeOpenApiSchema(schema: unknown, documentId: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => normalizeOpenApiSchema(item, documentId));
  if (schema === null || typeof schema !== 'object') return schema;

  const source = schema as JsonSchema;
  const inner: JsonSchema = {};
  for (const [keyword, value] of Object.entries(source)) {
    const isDocumentation =
      keyword === 'example' ||
      (keyword.startsWith('x-') && keyword !== VIOLATION_ERROR_CODE_KEYWORD);
    if (isDocumentation || keyword === 'nullable') continue;
    if (keyword === '$ref' && typeof value === 'string') {
      inner.$ref = value.replace('#/components/schemas/', `${documentId}#/definitions/`);
      continue;
    }
    // `properties` is a map of names to schemas, not a schema itself: recurse into its values only.
    if (keyword === 'properties' && value && typeof value === 'object') {
      inner.properties = Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, child]) => [
          name,
          normalizeOpenApiSchema(child, documentId),
        ]),
      );
      continue;
    }
    inner[keyword] = normalizeOpenApiSchema(value, documentId);
  }

  if (source.nullable !== true) return inner;

  const wrapper: JsonSchema = {};
  for (const keyword of ['default', 'description'] as const) {
    if (keyword in inner) {
      wrapper[keyword] = inner[keyword];
      delete inner[keyword];
    }
  }
  if (Array.isArray(inner.enum)) {
    inner.enum = inner.enum.filter((value) => value !== null);
    if ((inner.enum as unknown[]).length === 0) return { ...wrapper, type: 'null' };
  }
  wrapper.anyOf = [inner, { type: 'null' }];
  return wrapper;
}
