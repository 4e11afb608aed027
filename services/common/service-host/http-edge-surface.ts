import type { Express } from 'express';
import type { OperationDefinition } from '../contract-runtime/operation-definition';

/**
 * What a service's HTTP thread serves besides its forwarded operations (http-edge-thread.ts): the
 * module that exports it is loaded on that thread, so it must not reach the service's state —
 * only its contract (the bundled OpenAPI document and the generated operation table), static
 * pages, pure functions over a request's body, and what the main thread sends it (`receive`).
 */
export interface HttpEdgeSurface {
  /** The bundled OpenAPI document (generated/<service>/openapi.json). */
  apiDocument: { info: { title: string } };
  operationDefinitions: readonly OperationDefinition[];
  addExtraRoutes?: (app: Express) => void;
  /**
   * Work on an operation's checked body, by operationId, done here before the call is forwarded:
   * work that needs nothing of the service's state but what the main thread shares (`receive`).
   * Its result crosses with the call (structured-cloned) and reaches the handler as
   * `preparedOnThread`; one that throws fails the request as a fault.
   */
  prepareOperations?: Readonly<Record<string, (body: unknown) => unknown>>;
  /** Takes what the main thread shares with this thread (ServedContract's shareWithThread). */
  receive?: (message: unknown) => void;
}
