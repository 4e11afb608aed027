import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * Starts a local proxy's `server` on a free port of 127.0.0.1, where Chromium reaches it. A
 * client's malformed request or reset ends that connection only (the default would answer 400 to
 * a socket that may be gone).
 */
export async function listenOnLoopback(server: Server): Promise<number> {
  server.on('clientError', (_error, socket: Duplex) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}
