import { createServer, type AddressInfo } from 'node:net';

/**
 * A port nothing listens on at `host` (a loopback address) at the moment of asking: for a process
 * that must be told its port before it starts (an inspector, a Redis, a service restarted on the
 * same address), or for an address where a connection must be refused. Another process may take
 * it before the caller does; callers that bind it themselves right away rarely see that.
 */
export async function freeLoopbackPort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
