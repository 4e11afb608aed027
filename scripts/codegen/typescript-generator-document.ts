type JsonObject = { [key: string]: unknown };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The document the TypeScript templates read: the served document plus, on every operation, the
 * names its validator fills from a spec `default` — `x-defaulted-query` (query parameters) and
 * `x-defaulted-body` (top-level body properties), each a TypeScript union of string literals — and
 * `x-comment-summary`, the summary unescaped for doc comments. The templates make exactly the
 * defaulted fields non-optional in the handler's input type, so a handler never restates a
 * contract default (the router's ajv `useDefaults` has already filled it in).
 */
export function typescriptGeneratorDocument(document: JsonObject): JsonObject {
  const copy = structuredClone(document);
  const schemas = ((copy.components as JsonObject | undefined)?.schemas ?? {}) as Record<
    string,
    JsonObject
  >;
  const resolve = (schema: JsonObject | undefined): JsonObject | undefined => {
    const reference = schema?.$ref;
    return typeof reference === 'string'
      ? schemas[reference.replace('#/components/schemas/', '')]
      : schema;
  };
  for (const pathItem of Object.values((copy.paths ?? {}) as Record<string, JsonObject>)) {
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (!operation) continue;
      const queryNames = ((operation.parameters ?? []) as JsonObject[])
        .filter(
          (parameter) =>
            parameter.in === 'query' && hasDefault(resolve(parameter.schema as JsonObject)),
        )
        .map((parameter) => String(parameter.name));
      const bodySchema = resolve(
        (operation.requestBody as { content?: Record<string, { schema?: JsonObject }> } | undefined)
          ?.content?.['application/json']?.schema,
      );
      const bodyNames = Object.entries((bodySchema?.properties ?? {}) as Record<string, JsonObject>)
        .filter(([, property]) => hasDefault(resolve(property)))
        .map(([name]) => name);
      if (typeof operation.summary === 'string') {
        // The generator escapes quotes in `summary` for string literals (`sampler\'s`); the
        // templates use it in doc comments, where only a comment's end needs guarding.
        operation['x-comment-summary'] = operation.summary.replaceAll('*/', '*\\/');
      }
      if (queryNames.length > 0) operation['x-defaulted-query'] = literalUnion(queryNames);
      if (bodyNames.length > 0) operation['x-defaulted-body'] = literalUnion(bodyNames);
    }
  }
  return copy;
}

function hasDefault(schema: JsonObject | undefined): boolean {
  return schema !== undefined && Object.prototype.hasOwnProperty.call(schema, 'default');
}

function literalUnion(names: readonly string[]): string {
  return names.map((name) => `'${name}'`).join(' | ');
}
