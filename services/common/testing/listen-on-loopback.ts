import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `listener` (an Express app, a service's request listener) on 127.0.0.1 with an ephemeral
 * port (or `port`: a restart on the same address); returns its base URL and a closer.
 */
export async function listenOnLoopback(
  listener: RequestListener,
  port = 0,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = createServer(listener).listen(port, '127.0.0.1', () => resolve(listening));
    listening.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
