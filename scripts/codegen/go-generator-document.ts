type JsonObject = { [key: string]: unknown };

/**
 * The document the Go generator reads: the served document, except that an object schema with its
 * own `properties` loses a `oneOf`/`anyOf` beside them. There the variants restate rules about the
 * same properties (the fetch_status table, the verdict and render_strategy pairings) for
 * validators and fuzzers; the Go generator would instead turn the schema into a union of anonymous
 * variant types and drop its fields. The Go model carries every property; the rules stay the
 * provider's to enforce.
 */
export function goGeneratorDocument(document: JsonObject): JsonObject {
  return withoutVariantsBesideProperties(document, ['oneOf', 'anyOf']);
}

/**
 * The document openapi-typescript reads: an `anyOf` beside `properties` goes. openapi-typescript
 * types such a schema as "the properties, or one of the variants" (a union), which loses every
 * field; a `oneOf` there it types correctly (the properties and one of the variants), so it stays.
 * The anyOf pairings are exclusive variants over declared properties: validators enforce them.
 */
export function typesEmitterDocument(document: JsonObject): JsonObject {
  return withoutVariantsBesideProperties(document, ['anyOf']);
}

function withoutVariantsBesideProperties(
  document: JsonObject,
  keywords: ReadonlyArray<'oneOf' | 'anyOf'>,
): JsonObject {
  const copy = structuredClone(document);
  const schemas = ((copy.components as JsonObject | undefined)?.schemas ?? {}) as Record<
    string,
    JsonObject
  >;
  for (const schema of Object.values(schemas)) {
    if (schema.properties === undefined) continue;
    for (const keyword of keywords) delete schema[keyword];
  }
  return copy;
}
