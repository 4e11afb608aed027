import type { Server } from 'node:http';

/** Where a service listens: its own server, or its HTTP thread's (http-edge.ts). */
export interface ServiceListener {
  url: string;
  /** The Linux thread id of the HTTP thread, when there is one and it is known. */
  httpThreadId?: number;
  /** Cuts every open connection, requests in flight included (tests that stop at once). */
  closeAllConnections(): void;
  /** Stops accepting and closes idle connections; resolves once the requests in flight ended. */
  close(): Promise<void>;
}

export function serverListener(server: Server, url: string): ServiceListener {
  return {
    url,
    closeAllConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
