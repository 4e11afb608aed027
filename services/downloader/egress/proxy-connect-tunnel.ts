import type { IncomingMessage } from 'node:http';
import { connect, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream';
import { createByteLimitStream } from './byte-limit-stream';
import { EgressError, toEgressError } from './egress-error';
import { ProxyContext } from './proxy-context';

/**
 * Serves `CONNECT host:port` (https and WebSocket traffic from the browser): checks the destination
 * first, then opens a byte tunnel to the checked address. TLS stays end-to-end between Chromium
 * and the origin, so certificate errors surface in Chromium as they would without a proxy.
 *
 * A refused or failed CONNECT gets a 403 / 502 status line, which Chromium reports as
 * ERR_TUNNEL_CONNECTION_FAILED; the real reason goes to the failure registry.
 */
export async function openProxiedTunnel(
  connectRequest: IncomingMessage,
  clientSocket: Duplex,
  head: Buffer,
  context: ProxyContext,
  onUpstreamOpened: (upstream: Socket) => void,
): Promise<void> {
  // Node's HTTP server hands a CONNECT's socket over without an error listener. The browser may
  // reset it at any moment — while the destination is still being resolved, too — and an
  // unheard reset is an uncaught error that takes the whole downloader down. Destroyed, it closes,
  // and its close takes the upstream socket down once there is one.
  clientSocket.on('error', () => clientSocket.destroy());
  let target: URL;
  try {
    target = new URL(`http://${connectRequest.url ?? ''}`);
  } catch {
    clientSocket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const port = Number(target.port || 80);
  let isEstablished = false;
  const fail = (error: unknown): void => {
    const egressError = toEgressError(error);
    context.recordFailure(target.hostname, port, egressError);
    if (isEstablished || clientSocket.destroyed) {
      clientSocket.destroy();
      return;
    }
    const status = egressError.kind === 'destination_refused' ? '403 Forbidden' : '502 Bad Gateway';
    clientSocket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\n\r\n`);
  };

  let resolved;
  try {
    resolved = await context.resolveTarget(target.hostname, port);
  } catch (error) {
    fail(error);
    return;
  }

  if (clientSocket.destroyed) return; // the browser gave up while the name was being resolved
  const upstream = connect({ host: resolved.address, port, timeout: context.idleTimeoutMs });
  onUpstreamOpened(upstream);
  upstream.on('timeout', () =>
    upstream.destroy(
      new EgressError('timeout', `tunnel to ${target.host} idle for ${context.idleTimeoutMs} ms`),
    ),
  );
  upstream.on('error', fail);
  clientSocket.on('close', () => upstream.destroy());
  upstream.once('connect', () => {
    isEstablished = true;
    clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    clientSocket.pipe(upstream);
    pipeline(
      upstream,
      createByteLimitStream(context.maxTunnelBytes, `tunnel to ${target.host}`),
      clientSocket,
      (error) => {
        if (error instanceof EgressError) fail(error);
      },
    );
  });
}
