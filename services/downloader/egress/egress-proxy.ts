import { Agent, createServer, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DestinationResolver, ResolvedAddress } from './destination-resolver';
import { EgressError } from './egress-error';
import { EgressFailureRecord, EgressFailureRegistry } from './egress-failure-registry';
import { listenOnLoopback } from './loopback-listener';
import { ProxyContext } from './proxy-context';
import { openProxiedTunnel } from './proxy-connect-tunnel';
import { forwardProxiedRequest } from './proxy-http-forwarding';

export interface EgressProxyOptions {
  readonly resolver: DestinationResolver;
  /** Per proxied plain-HTTP response body. */
  readonly maxResponseBytes?: number;
  /** Per CONNECT tunnel (origin → browser): one tunnel may carry many responses (keep-alive, h2). */
  readonly maxTunnelBytes?: number;
  /** A connection silent for this long is dropped. */
  readonly idleTimeoutMs?: number;
  /** Called for every refused or failed outbound attempt (logging, metrics). */
  readonly onFailure?: (
    target: { hostname: string; port: number },
    failure: EgressFailureRecord,
  ) => void;
}

export interface EgressProxyCounters {
  requestCount: number;
  tunnelCount: number;
  refusedCount: number;
  failedCount: number;
  /** Requests sent again because the origin closed a reused connection (stale-connection-retry.ts). */
  closedConnectionRetryCount: number;
}

/**
 * How long a kept-alive connection to an origin may sit unused before the proxy closes it: below the
 * 5 s of common servers (Node, Apache), so the proxy, not the origin, ends an idle connection — the
 * origin closing it just as a request is written is what stale-connection-retry.ts repairs. An
 * origin that announces a shorter timeout (`Keep-Alive: timeout=N`) is obeyed, 1 s early: Node's
 * agent applies that hint only when it is shorter than the agent's own timeout, never without one.
 */
export const IDLE_ORIGIN_CONNECTION_MS = 4000;

/**
 * The pages' only way out: a forward proxy on 127.0.0.1, the proxy of the browser context every
 * page renders in (loopback not bypassed, so loopback targets are proxied too; Chromium's own
 * traffic goes to the BrowserTrafficRefuser instead).
 *
 * Why a proxy rather than request interception: the check must run on the resolved address right
 * before the connection, for every redirect hop and for every subresource, XHR, iframe and
 * WebSocket a page starts — including ones the page starts after we stopped watching. A proxy sees
 * them all at the socket level, costs one local hop, and doesn't slow or alter what the page
 * observes (interception pauses every request and turns aborts into console noise).
 */
export class EgressProxy {
  readonly failures = new EgressFailureRegistry();
  readonly counters: EgressProxyCounters = {
    requestCount: 0,
    tunnelCount: 0,
    refusedCount: 0,
    failedCount: 0,
    closedConnectionRetryCount: 0,
  };
  private readonly context: ProxyContext;
  private readonly agent = new Agent({
    keepAlive: true,
    maxSockets: 32,
    // Idle connections only: a request in flight has the proxy's own idleTimeoutMs.
    timeout: IDLE_ORIGIN_CONNECTION_MS,
  });
  private readonly openSockets = new Set<Duplex>();
  private server: Server | undefined;
  private listeningPort = 0;

  constructor(private readonly options: EgressProxyOptions) {
    this.context = {
      agent: this.agent,
      maxResponseBytes: options.maxResponseBytes ?? 32 * 1024 * 1024,
      maxTunnelBytes: options.maxTunnelBytes ?? 256 * 1024 * 1024,
      idleTimeoutMs: options.idleTimeoutMs ?? 30_000,
      resolveTarget: (hostname, port) => this.resolveTarget(hostname, port),
      recordFailure: (hostname, port, error) => this.recordFailure(hostname, port, error),
      onClosedConnectionRetry: () => (this.counters.closedConnectionRetryCount += 1),
    };
  }

  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  get proxyUrl(): string {
    if (this.server === undefined) throw new Error('EgressProxy not started');
    return `http://127.0.0.1:${this.listeningPort}`;
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      this.counters.requestCount += 1;
      void forwardProxiedRequest(request, response, this.context);
    });
    server.on('connect', (request, clientSocket: Duplex, head: Buffer) => {
      this.counters.tunnelCount += 1;
      this.track(clientSocket);
      void openProxiedTunnel(request, clientSocket, head, this.context, (upstream: Socket) =>
        this.track(upstream),
      );
    });
    server.on('connection', (socket: Socket) => this.track(socket));
    this.listeningPort = await listenOnLoopback(server);
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.openSockets) socket.destroy();
    this.agent.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private track(socket: Duplex): void {
    this.openSockets.add(socket);
    socket.once('close', () => this.openSockets.delete(socket));
  }

  private async resolveTarget(hostname: string, port: number): Promise<ResolvedAddress> {
    const resolved = await this.options.resolver.resolve(hostname);
    // Only reachable when an operator allow-lists 127.0.0.1: a page must still not loop through us.
    if (resolved.address === '127.0.0.1' && port === this.listeningPort) {
      throw new EgressError(
        'destination_refused',
        'destination is the egress proxy itself',
        'loopback',
      );
    }
    return resolved;
  }

  private recordFailure(hostname: string, port: number, error: EgressError): void {
    if (error.kind === 'destination_refused') this.counters.refusedCount += 1;
    else this.counters.failedCount += 1;
    this.failures.record(hostname, port, error.kind, error.message);
    this.options.onFailure?.(
      { hostname, port },
      { kind: error.kind, message: error.message, atMs: Date.now() },
    );
  }
}
