import type { Registry } from 'prom-client';

/** The metrics of a registry as data: what crosses between threads to be merged. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** What the main thread gives its HTTP thread (http-edge.ts, http-edge-thread.ts). */
export interface HttpEdgeThreadData {
  serviceName: string;
  /** The module (path without extension) exporting `httpEdgeSurface`. */
  surfaceModule: string;
  host: string;
  port: number;
  token: string;
  shouldValidateResponses: boolean;
  logLevel: string;
  startedAt: string;
}

/** What the HTTP thread tells the main thread once it listens. */
export interface HttpEdgeListening {
  port: number;
  /** The Linux thread id (for keeping it out of the background threads' niceness), or null. */
  threadId: number | null;
}

/** The calls between the main thread and its HTTP thread (thread-calls.ts). */
export const EDGE_CALLS = {
  /** A contract operation, forwarded to its handler (forwarded-operation.ts). */
  invoke: 'invoke',
  isReady: 'is_ready',
  metrics: 'metrics',
  close: 'close',
  closeAllConnections: 'close_all_connections',
  listening: 'listening',
  /** Main thread → HTTP thread: something the service shares with its surface (`receive`). */
  surfaceMessage: 'surface_message',
} as const;
