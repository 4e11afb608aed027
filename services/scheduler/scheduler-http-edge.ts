import { schedulerOperationDefinitions } from '../../generated/scheduler/router';
import openApiDocument from '../../generated/scheduler/openapi.json';
import type { HttpEdgeSurface } from '../common/service-host/http-edge-surface';
import { addOperatorPageRoutes } from './operator-page/operator-page-routes';

/**
 * The scheduler's HTTP surface: its contract and the static operator page, served on the HTTP
 * thread (--http-thread on, every operation forwarded to the frontier on the main thread) or on
 * the event loop (off; assemble-scheduler.ts takes its pages from here). Loaded on that thread: it
 * imports nothing of the frontier.
 */
export const httpEdgeSurface: HttpEdgeSurface = {
  apiDocument: openApiDocument,
  operationDefinitions: schedulerOperationDefinitions,
  addExtraRoutes: addOperatorPageRoutes,
};
