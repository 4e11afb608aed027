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

/** What the main thread gives its HTTP thread once the service is assembled. */
export interface HttpEdgeServing {
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

export interface HttpEdgeOptions extends HttpEdgeServing {
  data: HttpEdgeThreadData;
}

/** An HTTP thread that loads its surface and builds its contract router, not listening yet. */
export interface PreparingHttpEdge {
  /** Hands the thread the service's handlers and opens its port; resolves once it listens. */
  listen(serving: HttpEdgeServing): Promise<ServiceListener>;
  /** Ends the thread without listening (the service could not be assembled). */
  abandon(): Promise<void>;
}

/**
 * Starts the service's HTTP edge on a thread of its own (http-edge-thread.ts), which loads its
 * modules and builds its contract router at once but opens its port only when told (`listen`).
 * Why a thread: on a service whose event loop bounds its throughput — the scheduler — HTTP
 * parsing, JSON, the contract's checks and the answers' writes were a quarter of that loop's time
 * (docs/frontier-performance.md, thirty-ninth session), work that needs none of its state. Why
 * started early: its loading (~0.6 s on an idle machine: modules, then the contract's compiled
 * checks) then overlaps the main thread's opening of the service's storage instead of following it
 * — a 1M-URL scheduler ready in 2.65 s instead of 2.83 (medians of eight alternating starts,
 * fiftieth session; the overlap is partial, the two compete for the same two cores).
 */
export function prepareHttpEdge(data: HttpEdgeThreadData): PreparingHttpEdge {
  const worker = startWorkerThread(EDGE_THREAD_ENTRY, { workerData: data });
  const calls = new ThreadCalls(worker);
  // A thread that fails to load its surface ends before it listens: `listen` answers with why.
  const endedBeforeListening = new Promise<never>((_resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => {
      reject(new Error(`the HTTP thread exited with code ${code} before it listened`));
    });
  });
  endedBeforeListening.catch(() => undefined);
  return {
    abandon: async () => {
      await worker.terminate();
    },
    listen: async (serving) => {
      calls.handle(EDGE_CALLS.invoke, operationDispatcher(serving.invokers, serving.logger));
      calls.handle(EDGE_CALLS.isReady, () => serving.isReady());
      calls.handle(EDGE_CALLS.metrics, () => serving.registry.getMetricsAsJSON());
      let listening: HttpEdgeListening;
      try {
        listening = await Promise.race([
          calls.call<HttpEdgeListening>(EDGE_CALLS.listen),
          endedBeforeListening,
        ]);
      } catch (error) {
        await worker.terminate();
        throw error;
      }
      if (listening.threadId !== null) markForegroundThread(listening.threadId);
      serving.shareWithThread?.((message) => calls.notify(EDGE_CALLS.surfaceMessage, message));

      let isClosing = false;
      let hasFailed = false;
      // A thread that throws emits 'error', then 'exit': one failure.
      const fail = (error: Error) => {
        calls.failAll(error);
        if (isClosing || hasFailed) return;
        hasFailed = true;
        serving.onFailure(error);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the HTTP thread exited with code ${code}`)));
      return {
        url: `http://${data.host}:${listening.port}`,
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
    },
  };
}

/** Starts an HTTP thread and has it listen at once (for a caller with nothing to do between). */
export function startHttpEdge(options: HttpEdgeOptions): Promise<ServiceListener> {
  return prepareHttpEdge(options.data).listen(options);
}
