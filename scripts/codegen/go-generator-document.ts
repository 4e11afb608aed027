type JsonObject = { [key: string]: unknown };

/**
 * The document the Go generator reads: the served document, except that an object schema with its
 * own `properties` loses a `oneOf`/`anyOf` beside them. There the variants restate rules about the
 * same properties (the fetch_status table, the verdict pairing) for validators and fuzzers; the
 * Go generator would instead turn the schema into a union of anonymous variant types and drop its
 * fields. The Go model carries every property; the rules stay the provider's to enforce.
 */
export function goGeneratorDocument(document: JsonObject): JsonObject {
  const copy = structuredClone(document);
  const schemas = ((copy.components as JsonObject | undefined)?.schemas ?? {}) as Record<
    string,
    JsonObject
  >;
  for (const schema of Object.values(schemas)) {
    if (schema.properties !== undefined) {
      delete schema.oneOf;
      delete schema.anyOf;
    }
  }
  return copy;
}
