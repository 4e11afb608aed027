import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWithValidators } from '../demo-site/conditional-response';
import { staticAssets } from '../demo-site/demo-static-assets';
import { OriginAccessLog } from '../demo-site/origin-access-log';
import {
  BENCH_PAGE_SCRIPT,
  BENCH_PAGE_SCRIPT_PATH,
  benchPageContent,
  renderBenchPageHtml,
} from './bench-page-html';
import { BenchPage, buildBenchPageSet, LATE_XHR_DELAY_MS } from './bench-page-set';
import { clampedNumber, sendJson } from '../demo-site/http-answers';

export interface BenchSite {
  readonly hosts: readonly string[];
  /** `http://<host>:<port>` per host, same order as `hosts`. */
  readonly baseUrls: readonly string[];
  readonly pages: readonly BenchPage[];
  /** Every answered request (the demo site's log): proves what each contender fetched. */
  readonly accessLog: OriginAccessLog;
  stop(): Promise<void>;
}

const ROBOTS_TXT = 'User-agent: *\nDisallow: /private/\n';

interface HostContext {
  readonly hostIndex: number;
  readonly site: { baseUrls: readonly string[]; pages: readonly BenchPage[] };
  readonly assets: ReturnType<typeof staticAssets>;
  readonly lastModified: Date;
  readonly pageCacheControl: string;
}

export interface BenchSiteOptions {
  /**
   * Serve the item pages as most sites serve HTML — cacheable, revalidated (`no-cache`) — instead
   * of `no-store`. A `no-store` document barely stays in Chromium's back/forward cache, which hides
   * what keeping left documents costs a reused page (chromium-arguments.ts). Default false, the
   * pages every earlier figure was measured on.
   */
  readonly isPageCacheable?: boolean;
}

/** `/api/items/<n>/<part>?status=&delay_ms=`: the status and delay the page's plan asked for. */
function answerApi(response: ServerResponse, url: URL, context: HostContext): void {
  const match = /^\/api\/items\/(\d+)\/([a-z]+)$/.exec(url.pathname);
  const page = match ? context.site.pages[Number(match[1])] : undefined;
  if (match === null || page === undefined || page.hostIndex !== context.hostIndex) {
    sendJson(response, 404, { error: 'no such item' });
    return;
  }
  const status = clampedNumber(url.searchParams.get('status'), 200, 200, 599);
  const delayMs = clampedNumber(url.searchParams.get('delay_ms'), 0, 0, 5000);
  const body =
    match[2] === 'content'
      ? benchPageContent(page, context.site.baseUrls, context.site.pages.length)
      : { item: page.itemNumber, part: match[2], status };
  const timer = setTimeout(() => sendJson(response, status, body), delayMs);
  // A render that gave up must not leave the answer pending (the response closes with the socket).
  response.once('close', () => clearTimeout(timer));
}

function route(request: IncomingMessage, response: ServerResponse, context: HostContext): void {
  const url = new URL(request.url ?? '/', context.site.baseUrls[context.hostIndex]);
  const validated = (contentType: string, body: string | Buffer) =>
    sendWithValidators(request, response, 200, contentType, body, context.lastModified, 'no-cache');
  if (url.pathname.startsWith('/api/')) return answerApi(response, url, context);
  const itemMatch = /^\/items\/(\d+)$/.exec(url.pathname);
  const page = itemMatch ? context.site.pages[Number(itemMatch[1])] : undefined;
  if (page !== undefined && page.hostIndex === context.hostIndex) {
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': context.pageCacheControl,
    });
    response.end(renderBenchPageHtml(page));
    return;
  }
  if (url.pathname === BENCH_PAGE_SCRIPT_PATH) {
    return validated('text/javascript; charset=utf-8', BENCH_PAGE_SCRIPT);
  }
  const asset = context.assets.get(url.pathname);
  if (asset !== undefined) return validated(asset.contentType, asset.body);
  if (url.pathname === '/robots.txt') return validated('text/plain; charset=utf-8', ROBOTS_TXT);
  response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Serves `pageCount` bench pages over `hosts` (loopback addresses, a free port each). The page set
 * depends on the ports, so it is built once every host listens; handlers read it lazily.
 */
export async function startBenchSite(
  hosts: readonly string[],
  pageCount: number,
  options: BenchSiteOptions = {},
): Promise<BenchSite> {
  const accessLog = new OriginAccessLog();
  const site: { baseUrls: string[]; pages: BenchPage[] } = { baseUrls: [], pages: [] };
  // The demo site's stylesheet (with its web font) and image; its own scripts are not used.
  const assets = staticAssets({ lateXhrDelayMs: LATE_XHR_DELAY_MS });
  const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000 - 3600_000);
  const servers: Server[] = [];
  try {
    for (const [hostIndex, host] of hosts.entries()) {
      const context: HostContext = {
        hostIndex,
        site,
        assets,
        lastModified,
        pageCacheControl: options.isPageCacheable === true ? 'no-cache' : 'no-store',
      };
      const server = createServer((request, response) => {
        accessLog.recordWhenClosed(host, request, response);
        route(request, response, context);
      });
      servers.push(server);
      site.baseUrls.push(`http://${host}:${await listen(server, host)}`);
    }
  } catch (error) {
    await Promise.all(servers.filter((server) => server.listening).map(close));
    throw error;
  }
  site.pages = buildBenchPageSet(site.baseUrls, pageCount);
  return {
    hosts,
    baseUrls: site.baseUrls,
    pages: site.pages,
    accessLog,
    stop: async () => {
      await Promise.all(servers.map(close));
    },
  };
}
