import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoHostHandler } from './demo-host-handler';
import { computeReachableUrls } from './demo-site-map';
import { staticAssets } from './demo-static-assets';
import { OriginAccessLog } from './origin-access-log';

export interface DemoSiteOptions {
  /** Loopback addresses to serve on, one demo host each. */
  readonly hosts?: readonly string[];
  /** One port for every host; 0 (default) picks a free port per host. */
  readonly port?: number;
  /** Crawl-delay announced in every robots.txt. */
  readonly crawlDelaySeconds?: number;
  /** How long the csr content XHR takes (the content appears after the load event). */
  readonly contentXhrDelayMs?: number;
  /** Delay of the late XHR after the load event. */
  readonly lateXhrDelayMs?: number;
  /**
   * Hosts (of `hosts`) whose static pages build their article in the browser from /api/page —
   * an app shell the sampler judges csr. Same pages, same links once rendered.
   */
  readonly clientRenderedHosts?: readonly string[];
}

export interface DemoSite {
  readonly hosts: readonly string[];
  /** `http://<host>:<port>` per host, no trailing slash, same order as `hosts`. */
  readonly baseUrls: readonly string[];
  /** Every request the demo hosts answered, readable in-process. */
  readonly accessLog: OriginAccessLog;
  /**
   * Serves the access log as JSON (`GET /access-log[?host=…]`, `DELETE /access-log`) on 127.0.0.1,
   * an address no demo page links to and no test allow-lists, so reading it is never logged and
   * can't be confused with crawler traffic.
   */
  readonly controlUrl: string;
  /**
   * Normalized URLs a polite crawler reaches from the first host's home page by following links
   * (nofollow-only and robots-disallowed pages excluded).
   */
  readonly reachableUrls: readonly string[];
  stop(): Promise<void>;
}

export const DEFAULT_DEMO_HOSTS: readonly string[] = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function createControlServer(accessLog: OriginAccessLog): Server {
  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://control');
    if (url.pathname !== '/access-log') {
      response.writeHead(404).end();
      return;
    }
    if (request.method === 'DELETE') {
      accessLog.clear();
      response.writeHead(204).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(
      JSON.stringify({ entries: accessLog.list(url.searchParams.get('host') ?? undefined) }),
    );
  });
}

/** Starts the demo hosts and the control endpoint. Stop it with `stop()`. */
export async function startDemoSite(options: DemoSiteOptions = {}): Promise<DemoSite> {
  const hosts = options.hosts ?? DEFAULT_DEMO_HOSTS;
  const accessLog = new OriginAccessLog();
  const assets = staticAssets({ lateXhrDelayMs: options.lateXhrDelayMs ?? 200 });
  const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
  const baseUrls: string[] = [];
  const servers: Server[] = [];
  try {
    for (const [hostIndex, host] of hosts.entries()) {
      // The handler reads baseUrls lazily, so cross-host links see every host once all listen.
      const server = createServer(
        createDemoHostHandler({
          host,
          hostIndex,
          baseUrls,
          accessLog,
          assets,
          lastModified,
          crawlDelaySeconds: options.crawlDelaySeconds ?? 1,
          contentXhrDelayMs: options.contentXhrDelayMs ?? 150,
          isClientRendered: options.clientRenderedHosts?.includes(host) ?? false,
        }),
      );
      servers.push(server);
      const port = await listen(server, options.port ?? 0, host);
      baseUrls.push(`http://${host}:${port}`);
    }
    const control = createControlServer(accessLog);
    servers.push(control);
    const controlPort = await listen(control, 0, '127.0.0.1');
    return {
      hosts,
      baseUrls,
      accessLog,
      controlUrl: `http://127.0.0.1:${controlPort}/access-log`,
      reachableUrls: computeReachableUrls(baseUrls, [`${baseUrls[0]}/`]),
      stop: async () => {
        await Promise.all(servers.map(close));
      },
    };
  } catch (error) {
    await Promise.all(servers.filter((server) => server.listening).map(close));
    throw error;
  }
}
