import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { sendWithValidators } from './conditional-response';
import { articleContent, csrContent, renderDemoPage } from './demo-page-html';
import { DEMO_PAGES, DISALLOWED_PATH_PREFIX, findDemoPage } from './demo-site-map';
import { StaticAsset } from './demo-static-assets';
import {
  challengePage,
  emptyPage,
  interruptionsPage,
  largePage,
  referencesPage,
  slowPage,
  statusPage,
} from './demo-test-pages';
import { OriginAccessLog } from './origin-access-log';
import { clampedNumber, sendJson } from './http-answers';

export interface DemoHostContext {
  readonly host: string;
  readonly hostIndex: number;
  readonly baseUrls: readonly string[];
  readonly accessLog: OriginAccessLog;
  readonly assets: ReadonlyMap<string, StaticAsset>;
  readonly lastModified: Date;
  readonly crawlDelaySeconds: number;
  /** How long /api/articles takes, so the csr content appears after the load event. */
  readonly contentXhrDelayMs: number;
  /** Every static page's article is built in the browser (an app shell): a host to sample as csr. */
  readonly isClientRendered: boolean;
}

const HTML = 'text/html; charset=utf-8';

function sendHtml(response: ServerResponse, status: number, html: string, extraHeaders = {}): void {
  response.writeHead(status, {
    'content-type': HTML,
    'cache-control': 'no-store',
    ...extraHeaders,
  });
  response.end(html);
}

/**
 * Answers after `delayMs`, unless the client gave up first. Listens on the response, not the
 * socket: a kept-alive socket serves many requests, and a listener per request would pile up on it.
 */
function later(response: ServerResponse, delayMs: number, answer: () => void): void {
  const timer = setTimeout(answer, delayMs);
  response.once('close', () => clearTimeout(timer));
}

function robotsTxt(context: DemoHostContext): string {
  return [
    'User-agent: *',
    `Disallow: ${DISALLOWED_PATH_PREFIX}`,
    `Crawl-delay: ${context.crawlDelaySeconds}`,
    '',
    `Sitemap: ${context.baseUrls[context.hostIndex]}/sitemap.xml`,
    '',
  ].join('\n');
}

function sitemapXml(context: DemoHostContext): string {
  const entries = DEMO_PAGES.filter((page) => page.isInSitemap).map(
    (page) => `  <url><loc>${context.baseUrls[context.hostIndex]}${page.path}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

function route(request: IncomingMessage, response: ServerResponse, context: DemoHostContext): void {
  const url = new URL(request.url ?? '/', context.baseUrls[context.hostIndex]);
  const parameter = (name: string) => url.searchParams.get(name);
  const validated = (contentType: string, body: string | Buffer, cacheControl: string) =>
    sendWithValidators(
      request,
      response,
      200,
      contentType,
      body,
      context.lastModified,
      cacheControl,
    );

  const page = findDemoPage(url.pathname);
  if (page !== undefined) {
    validated(
      HTML,
      renderDemoPage(page, context.hostIndex, context.baseUrls, context.isClientRendered),
      'no-store',
    );
    return;
  }
  const asset = context.assets.get(url.pathname);
  if (asset !== undefined) {
    validated(asset.contentType, asset.body, 'no-cache');
    return;
  }
  switch (url.pathname) {
    case '/robots.txt':
      return validated('text/plain; charset=utf-8', robotsTxt(context), 'no-cache');
    case '/sitemap.xml':
      return validated('application/xml; charset=utf-8', sitemapXml(context), 'no-cache');
    case '/api/articles':
      return later(response, context.contentXhrDelayMs, () =>
        sendJson(
          response,
          200,
          csrContent(findDemoPage('/csr')!, context.hostIndex, context.baseUrls),
        ),
      );
    case '/api/page': {
      const article = context.isClientRendered ? findDemoPage(parameter('path') ?? '') : undefined;
      if (article === undefined || article.kind !== 'static') {
        return sendJson(response, 404, { error: 'no such article' });
      }
      return later(response, context.contentXhrDelayMs, () =>
        sendJson(response, 200, articleContent(article, context.hostIndex, context.baseUrls)),
      );
    }
    case '/api/fail': {
      const status = clampedNumber(parameter('status'), 500, 400, 599);
      return sendJson(response, status, { error: `demo failure ${status}` });
    }
    case '/api/late':
      return sendJson(response, 200, { isLate: true });
    case '/slow': {
      const delayMs = clampedNumber(parameter('delay_ms'), 3000, 0, 30_000);
      return later(response, delayMs, () => sendHtml(response, 200, slowPage(delayMs)));
    }
    case '/redirect':
      response.writeHead(302, { location: parameter('to') ?? '/' }).end();
      return;
    case '/challenge':
      return sendHtml(response, 403, challengePage());
    case '/references':
      return sendHtml(response, 200, referencesPage(parameter('target') ?? '127.0.0.9:9'));
    case '/interruptions':
      return sendHtml(response, 200, interruptionsPage());
    case '/empty':
      return sendHtml(response, 200, emptyPage());
    case '/large':
      return sendHtml(
        response,
        200,
        largePage(clampedNumber(parameter('bytes'), 100_000, 0, 50_000_000)),
      );
    case '/status': {
      const status = clampedNumber(parameter('code'), 500, 200, 599);
      return sendHtml(response, status, statusPage(status));
    }
    default:
      sendHtml(response, 404, statusPage(404));
  }
}

/** Request handler for one demo host; every request lands in the access log once answered. */
export function createDemoHostHandler(context: DemoHostContext): RequestListener {
  return (request, response) => {
    context.accessLog.recordWhenClosed(context.host, request, response);
    route(request, response, context);
  };
}
