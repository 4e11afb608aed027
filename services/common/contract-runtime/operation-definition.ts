/**
 * The per-operation facts the generated router and client are built from. The generated code
 * (templates/) writes one literal per operation, with wire names exactly as in the OpenAPI
 * document; schemas themselves are read from the bundled document at run time.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** `bounded`: exponential backoff, at most 3 tries. `until_success`: retry until it succeeds. */
export type RetryPolicy = 'bounded' | 'until_success';

export interface OperationDefinition {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/objects/{object_id}`. */
  path: string;
  /** Security scheme names any one of which admits the call; empty = no authentication. */
  securitySchemes: readonly string[];
  queryParameterNames: readonly string[];
  pathParameterNames: readonly string[];
  hasRequestBody: boolean;
  successStatus: number;
  retryPolicy: RetryPolicy;
}
