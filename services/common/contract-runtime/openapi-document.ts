/**
 * Minimal typing of the bundled OpenAPI 3.0 documents under generated/<service>/openapi.json —
 * only the parts the runtime reads.
 */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description?: string;
  'x-error-codes'?: string[];
  content?: { 'application/json'?: { schema?: JsonSchema } };
}

export interface OpenApiOperation {
  operationId: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse>;
  security?: Array<Record<string, string[]>>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Finds an operation by id; throws when the document and the generated code disagree. */
export function findOperation(
  document: OpenApiDocument,
  method: string,
  path: string,
): OpenApiOperation {
  const operation = document.paths[path]?.[method];
  if (!operation) {
    throw new Error(`${method.toUpperCase()} ${path} is not in ${document.info.title}`);
  }
  return operation;
}
