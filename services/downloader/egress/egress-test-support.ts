import { createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { HostLookup } from './destination-resolver';
import { EgressError } from './egress-error';

/**
 * Test helpers shared by the egress and rendering tests. Tests may only talk to 127.0.0.0/8, so:
 *  - `refuseNameLookup` answers every DNS question with "not found" without asking any resolver;
 *  - a counting listener stands in for a forbidden destination and proves it was never contacted.
 */

export const refuseNameLookup: HostLookup = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (tests never use DNS)`), {
    code: 'ENOTFOUND',
  });
};

export interface ConnectionCountingListener {
  readonly host: string;
  readonly port: number;
  /** Every TCP connection accepted so far. */
  connectionCount(): number;
  close(): Promise<void>;
}

/** Accepts TCP connections on `host` (a loopback address), counts them and hangs up. */
export async function startConnectionCountingListener(
  host: string,
): Promise<ConnectionCountingListener> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    connectionCount: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The EgressError a promise rejects with; fails the test when it resolves or rejects otherwise. */
export async function egressFailureOf(promise: Promise<unknown>): Promise<EgressError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EgressError) return error;
    throw error;
  }
  throw new Error('expected an EgressError');
}
