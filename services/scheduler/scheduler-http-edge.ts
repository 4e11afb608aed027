import { schedulerOperationDefinitions } from '../../generated/scheduler/router';
import openApiDocument from '../../generated/scheduler/openapi.json';
import type { HttpEdgeSurface } from '../common/service-host/http-edge-surface';
import { addOperatorPageRoutes } from './operator-page/operator-page-routes';

/**
 * The scheduler's HTTP thread (--http-thread on): its contract operations, all forwarded to the
 * frontier on the main thread, and the static operator page. Loaded on that thread: it imports
 * nothing of the frontier.
 */
export const httpEdgeSurface: HttpEdgeSurface = {
  apiDocument: openApiDocument,
  operationDefinitions: schedulerOperationDefinitions,
  addExtraRoutes: addOperatorPageRoutes,
};
