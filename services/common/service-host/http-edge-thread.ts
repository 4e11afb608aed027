import { readlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { AggregatorRegistry, Registry } from 'prom-client';
import { ContractMetrics } from '../contract-runtime/contract-metrics';
import { createContractRouter } from '../contract-runtime/contract-router';
import type { OpenApiDocument } from '../contract-runtime/openapi-document';
import { createLogger } from '../logging/create-logger';
import { ThreadCalls } from '../process/thread-calls';
import { createServiceRequestListener } from './create-service-request-listener';
import { forwardingInvokers, type ForwardedOutcome } from './forwarded-operation';
import type { HttpEdgeSurface } from './http-edge-surface';
import { listenOn } from './listen-on';
import {
  EDGE_CALLS,
  type HttpEdgeListening,
  type HttpEdgeThreadData,
  type MetricsJson,
} from './http-edge-protocol';
import { createServiceTokenAuthenticator } from './service-token-authenticator';

/**
 * The service's HTTP edge on a thread of its own: the same surface as in-process
 * (create-service-request-listener.ts) — parsing, authentication, the contract's checks, the
 * answers, the request log — with every contract operation handed to the main thread as checked
 * input (forwarded-operation.ts), so that the main thread spends its time on the service's state
 * alone. /healthz and /metrics ask the main thread; its metrics and this thread's contract metrics
 * are merged into one exposition.
 */
async function main(): Promise<void> {
  const data = workerData as HttpEdgeThreadData;
  const calls = new ThreadCalls(parentPort as NonNullable<typeof parentPort>);
  const surface = (require(data.surfaceModule) as { httpEdgeSurface: HttpEdgeSurface })
    .httpEdgeSurface;
  // Before 'listening': the main thread shares with the surface from then on.
  calls.handle(EDGE_CALLS.surfaceMessage, (message: unknown) => surface.receive?.(message));
  const logger = createLogger(data.serviceName, data.logLevel);
  const registry = new Registry();
  const contractRouter = createContractRouter(
    {
      document: surface.apiDocument as unknown as OpenApiDocument,
      definitions: surface.operationDefinitions,
      invokers: forwardingInvokers(
        surface.operationDefinitions,
        (call) => calls.call<ForwardedOutcome>(EDGE_CALLS.invoke, call),
        surface.prepareOperations,
      ),
    },
    {
      serviceName: data.serviceName,
      authenticate: createServiceTokenAuthenticator(data.token),
      logger,
      metrics: new ContractMetrics(registry, data.serviceName),
      shouldValidateResponses: data.shouldValidateResponses,
    },
  );
  const listener = createServiceRequestListener({
    serviceName: data.serviceName,
    logger,
    registry,
    contractRouter,
    apiDocument: surface.apiDocument,
    startedAt: data.startedAt,
    isReady: () => calls.call<boolean>(EDGE_CALLS.isReady),
    readMetrics: async () => {
      const mainThreadMetrics = await calls.call<MetricsJson>(EDGE_CALLS.metrics);
      const ownMetrics = await registry.getMetricsAsJSON();
      return AggregatorRegistry.aggregate([mainThreadMetrics, ownMetrics]).metrics();
    },
    addExtraRoutes: surface.addExtraRoutes,
  });
  const server: Server = await listenOn(listener, data.host, data.port);
  calls.handle(EDGE_CALLS.closeAllConnections, () => server.closeAllConnections());
  calls.handle(
    EDGE_CALLS.close,
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  );
  const listening: HttpEdgeListening = {
    port: (server.address() as AddressInfo).port,
    threadId: ownThreadId(),
  };
  calls.notify(EDGE_CALLS.listening, listening);
}

/** This thread's Linux thread id ("<pid>/task/<tid>" is where /proc/thread-self points). */
function ownThreadId(): number | null {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}

// A failure to start (a port in use) rejects unhandled: the thread ends with it, and the main
// thread, which waits for 'listening', answers with that error.
void main();
