import { schedulerOperationDefinitions } from '../../generated/scheduler/operation-definitions';
import openApiDocument from '../../generated/scheduler/openapi.json';
import type { HttpEdgeSurface } from '../common/service-host/http-edge-surface';
import { ThreadLinkPreparation } from './frontier/thread-link-preparation';
import { addOperatorPageRoutes } from './operator-page/operator-page-routes';

/** On the HTTP thread: a report's links, prepared before it is forwarded. */
const linkPreparation = new ThreadLinkPreparation();

/**
 * The scheduler's HTTP surface: its contract and the static operator page, served on the HTTP
 * thread (--http-thread on, every operation forwarded to the frontier on the main thread; with it
 * off, assemble-scheduler.ts serves the same pages from operator-page-routes.ts). Loaded on that
 * thread only: of the frontier it imports only the pure link preparation, which turns a report's
 * links into what the main thread would otherwise have a link-preparation thread make
 * (thread-link-preparation.ts), with the known-URL tables the main thread shares.
 */
export const httpEdgeSurface: HttpEdgeSurface = {
  apiDocument: openApiDocument,
  operationDefinitions: schedulerOperationDefinitions,
  addExtraRoutes: addOperatorPageRoutes,
  prepareOperations: { reportLease: (body) => linkPreparation.prepareReport(body) },
  receive: (message) => linkPreparation.receive(message),
};
