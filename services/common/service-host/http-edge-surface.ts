import type { Express } from 'express';
import type { OperationDefinition } from '../contract-runtime/operation-definition';

/**
 * What a service's HTTP thread serves besides its forwarded operations (http-edge-thread.ts): the
 * module that exports it is loaded on that thread, so it must not reach the service's state —
 * only its contract (the bundled OpenAPI document and the generated operation table) and static
 * pages.
 */
export interface HttpEdgeSurface {
  /** The bundled OpenAPI document (generated/<service>/openapi.json). */
  apiDocument: { info: { title: string } };
  operationDefinitions: readonly OperationDefinition[];
  addExtraRoutes?: (app: Express) => void;
}
