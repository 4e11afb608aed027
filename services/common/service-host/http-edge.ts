import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { OperationInvoker } from '../contract-runtime/contract-router';
import { markForegroundThread } from '../process/background-thread-priority';
import { ThreadCalls } from '../process/thread-calls';
import { startWorkerThread } from '../process/worker-thread-entry';
import { operationDispatcher } from './forwarded-operation';
import { EDGE_CALLS, type HttpEdgeListening, type HttpEdgeThreadData } from './http-edge-protocol';
import type { ServiceListener } from './service-listener';

const EDGE_THREAD_ENTRY = join(__dirname, 'http-edge-thread');

export interface HttpEdgeOptions {
  data: HttpEdgeThreadData;
  /** The service's handlers by operationId, run here for the calls the thread forwards. */
  invokers: Readonly<Record<string, OperationInvoker>>;
  logger: Logger;
  registry: Registry;
  isReady: () => boolean;
  /** Called once the thread listens, with a way to send its surface messages (`receive`). */
  shareWithThread?: (post: (message: unknown) => void) => void;
  /** The thread died while serving (not while closing): the service cannot answer any more. */
  onFailure: (error: Error) => void;
}

/**
 * Starts the service's HTTP edge on a thread of its own (http-edge-thread.ts) and answers once it
 * listens. Why: on a service whose event loop bounds its throughput — the scheduler — HTTP
 * parsing, JSON, the contract's checks and the answers' writes were a quarter of that loop's time
 * (docs/frontier-performance.md, thirty-ninth session), work that needs none of its state.
 */
export async function startHttpEdge(options: HttpEdgeOptions): Promise<ServiceListener> {
  const worker = startWorkerThread(EDGE_THREAD_ENTRY, { workerData: options.data });
  const calls = new ThreadCalls(worker);
  calls.handle(EDGE_CALLS.invoke, operationDispatcher(options.invokers, options.logger));
  calls.handle(EDGE_CALLS.isReady, () => options.isReady());
  calls.handle(EDGE_CALLS.metrics, () => options.registry.getMetricsAsJSON());
  let listening: HttpEdgeListening;
  try {
    listening = await new Promise<HttpEdgeListening>((resolve, reject) => {
      calls.handle(EDGE_CALLS.listening, resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => {
        reject(new Error(`the HTTP thread exited with code ${code} before it listened`));
      });
    });
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  if (listening.threadId !== null) markForegroundThread(listening.threadId);
  options.shareWithThread?.((message) => calls.notify(EDGE_CALLS.surfaceMessage, message));

  let isClosing = false;
  let hasFailed = false;
  // A thread that throws emits 'error', then 'exit': one failure.
  const fail = (error: Error) => {
    calls.failAll(error);
    if (isClosing || hasFailed) return;
    hasFailed = true;
    options.onFailure(error);
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the HTTP thread exited with code ${code}`)));
  return {
    url: `http://${options.data.host}:${listening.port}`,
    httpThreadId: listening.threadId ?? undefined,
    closeAllConnections: () => calls.notify(EDGE_CALLS.closeAllConnections),
    close: async () => {
      isClosing = true;
      try {
        await calls.call(EDGE_CALLS.close);
      } finally {
        await worker.terminate();
      }
    },
  };
}
