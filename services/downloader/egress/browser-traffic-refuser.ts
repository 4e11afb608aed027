import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { listenOnLoopback } from './loopback-listener';

/** How many distinct hosts are remembered for the operator (the first ones seen). */
const REMEMBERED_HOST_LIMIT = 20;

/**
 * The proxy Chromium's own traffic is sent to — everything that is not a page's: component and
 * variations updates, sign-in and other Google services that Chromium 156 still contacts with every
 * background-networking flag set (update.googleapis.com and accounts.google.com within a second of
 * launch). Pages render in a browser context of their own whose proxy is the egress proxy
 * (browser-generation.ts); the browser-wide proxy is this one, which refuses every request on the
 * spot (403 to a CONNECT, 403 to a forwarded request) without resolving or contacting anything.
 *
 * Before it, that traffic went through the egress proxy: a DNS query per host on every launch, a
 * connection to Google wherever the network allows it, and a CONNECT reset by Chromium while its
 * lookup was pending.
 */
export class BrowserTrafficRefuser {
  private server: Server | undefined;
  private listeningPort = 0;
  private readonly hosts = new Set<string>();
  private count = 0;

  /** `http://127.0.0.1:<port>`, for Chromium's browser-wide `--proxy-server`. */
  get proxyUrl(): string {
    if (this.server === undefined) throw new Error('BrowserTrafficRefuser not started');
    return `http://127.0.0.1:${this.listeningPort}`;
  }

  /** Requests refused so far, and the first hosts they were for. */
  get refused(): { count: number; hosts: readonly string[] } {
    return { count: this.count, hosts: [...this.hosts] };
  }

  async start(): Promise<void> {
    const server = createServer((request, response) => {
      this.record(request.headers.host ?? request.url ?? '');
      response.writeHead(403, { 'content-length': '0', connection: 'close' }).end();
    });
    server.on('connect', (request, socket: Duplex) => {
      // Node hands a CONNECT's socket over without an error listener: a reset must not throw.
      socket.on('error', () => socket.destroy());
      this.record(request.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    this.listeningPort = await listenOnLoopback(server);
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private record(host: string): void {
    this.count += 1;
    if (this.hosts.size < REMEMBERED_HOST_LIMIT) this.hosts.add(host);
  }
}
