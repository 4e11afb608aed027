import {
  allLinksOf,
  DemoPage,
  DEMO_PAGES,
  DISALLOWED_PATH_PREFIX,
  LinkRegion,
  resolveDemoLink,
} from '../../../scripts/demo-site/demo-site-map';
import { DemoSite, startDemoSite } from '../../../scripts/demo-site/demo-site';
import { contentHash, urlHash } from '../../common/url/url-hash';
import { DestinationPolicy } from '../egress/destination-policy';
import {
  ConnectionCountingListener,
  refuseNameLookup,
  startConnectionCountingListener,
} from '../egress/egress-test-support';
import { RenderEngine } from './render-engine';
import type { FailedOutcome, PageOutcome, RenderOutcome, RenderRequest } from './render-outcome';
import type { DomPosition, PageLink } from './rendered-page';

// One engine, one demo site and one forbidden listener for the whole file (Chromium is the cost).
let site: DemoSite;
let engine: RenderEngine;
let forbidden: ConnectionCountingListener;
let home: string;

const MAX_CONTENT_BYTES = 200_000;

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  home = site.baseUrls[0];
  forbidden = await startConnectionCountingListener('127.0.0.9');
  engine = new RenderEngine({
    // Exactly the demo's addresses: 127.0.0.9 (and the rest of 127/8) stays refused.
    destinationPolicy: new DestinationPolicy({ allowedRanges: [...site.hosts] }),
    hostLookup: refuseNameLookup,
    concurrency: 4,
    maxContentBytes: MAX_CONTENT_BYTES,
  });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop();
  await site?.stop();
  await forbidden?.close();
});

function render(path: string, overrides: Partial<RenderRequest> = {}): Promise<RenderOutcome> {
  const url = /^[a-z]+:/.test(path) ? path : `${home}${path}`;
  return engine.render({
    url,
    shouldRender: true,
    waitSelector: null,
    timeoutMs: 10_000,
    ...overrides,
  });
}

function expectPage(outcome: RenderOutcome): PageOutcome {
  if (outcome.kind !== 'page') throw new Error(`expected a page, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function expectFailed(outcome: RenderOutcome): FailedOutcome {
  if (outcome.kind !== 'failed') {
    throw new Error(`expected a failure, got ${JSON.stringify(outcome).slice(0, 300)}`);
  }
  return outcome;
}

const CONTRACT_PAGE_FIELDS = [
  'url',
  'url_hash',
  'final_url',
  'http_status',
  'fetch_status',
  'is_rendered',
  'rendered_html',
  'response_body',
  'content_type',
  'content_hash',
  'title',
  'lang',
  'etag',
  'last_modified_at',
  'fetched_at',
  'render_duration_ms',
  'network_log',
  'console_errors',
  'link_list',
  'health_signal',
];
const CONTRACT_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('a CSR page whose content arrives by XHR', () => {
  let outcome: PageOutcome;

  beforeAll(async () => {
    site.accessLog.clear();
    outcome = expectPage(await render('/csr', { waitSelector: '#content' }));
  });

  test('is rendered with the XHR-delivered text and links', () => {
    const { page } = outcome;
    expect(page.rendered_html).toContain('Articles delivered by XHR after the page loaded.');
    expect(page.rendered_html).toContain('<section id="content">');
    expect(page.fetch_status).toBe('done');
    expect(page.link_list).toContainEqual({
      url: `${home}/articles/4`,
      rel: '',
      dom_position: 'main',
      anchor_text: 'Fourth article, only linked from XHR content',
    });
  });

  test('has exactly the contract fields, with consistent hashes and times', () => {
    const { page, statistics } = outcome;
    expect(Object.keys(page).sort()).toEqual([...CONTRACT_PAGE_FIELDS].sort());
    expect(page.url).toBe(`${home}/csr`);
    expect(page.url_hash).toBe(urlHash(page.url));
    expect(page.content_hash).toBe(contentHash(page.rendered_html as string));
    expect(page.is_rendered).toBe(true);
    expect(page.response_body).toBeNull();
    expect(page.http_status).toBe(200);
    expect(page.title).toBe('Live articles');
    expect(page.lang).toBe('en');
    expect(page.content_type).toBe('text/html; charset=utf-8');
    expect(page.etag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(page.last_modified_at).toMatch(CONTRACT_TIME);
    expect(page.fetched_at).toMatch(CONTRACT_TIME);
    expect(statistics.link_count).toBe(page.link_list.length);
    expect(statistics.html_byte_count).toBe(Buffer.byteLength(page.rendered_html as string));
    expect(statistics.text_character_count).toBeGreaterThan(50);
    expect(statistics.render_duration_ms).toBe(page.render_duration_ms);
  });

  test('counts its failing XHRs in health_signal, including the late one in the total', () => {
    expect(outcome.page.health_signal).toEqual({
      xhr_total_count: 5, // articles, 500, 429, 403, late
      xhr_error_count: 1,
      xhr_throttled_count: 1,
      xhr_denied_count: 1,
      has_console_error: false,
      redirect_target_hash: urlHash(`${home}/csr`),
    });
  });

  test('logs the late XHR (fired 200 ms after load) with its type and status', () => {
    expect(outcome.page.network_log).toContainEqual({
      url: `${home}/api/late`,
      type: 'xhr',
      method: 'GET',
      http_status: 200,
    });
    expect(outcome.page.network_log).toContainEqual({
      url: `${home}/api/fail?status=429`,
      type: 'xhr',
      method: 'GET',
      http_status: 429,
    });
    expect(outcome.page.network_log[0]).toEqual({
      url: `${home}/csr`,
      type: 'document',
      method: 'GET',
      http_status: 200,
    });
  });

  test('blocks the image and the web font: never fetched, not logged, no console errors', () => {
    const paths = site.accessLog.list('127.0.0.2').map((entry) => entry.path);
    expect(paths).toContain('/api/late');
    expect(paths).not.toContain('/static/pixel.png');
    expect(paths).not.toContain('/static/demo-font.woff2');
    expect(paths).not.toContain('/favicon.ico');
    const types = outcome.page.network_log.map((entry) => entry.type);
    expect(types).not.toContain('image');
    expect(types).not.toContain('font');
    expect(outcome.page.console_errors).toEqual([]);
  });
});

describe('links', () => {
  const POSITION_OF_REGION: Record<LinkRegion, DomPosition> = {
    header: 'header',
    navigation: 'navigation',
    main: 'main',
    aside: 'aside',
    footer: 'footer',
    outside: 'other',
  };

  function expectedLinks(page: DemoPage): PageLink[] {
    return allLinksOf(page).map((link) => ({
      url: resolveDemoLink(link, 0, site.baseUrls),
      rel: (link.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean).join(' '),
      dom_position: POSITION_OF_REGION[link.region],
      anchor_text: link.text,
    }));
  }

  const sortLinks = (links: PageLink[]) => links.map((link) => JSON.stringify(link)).sort();

  test.each(['/', '/about', '/articles/1', '/articles/2'])(
    'on %s match the site map: absolute URLs, rel, landmark position, text',
    async (path) => {
      const { page } = expectPage(await render(path));
      const demoPage = DEMO_PAGES.find((candidate) => candidate.path === path) as DemoPage;
      expect(sortLinks(page.link_list)).toEqual(sortLinks(expectedLinks(demoPage)));
    },
  );

  test('keep nofollow and normalize rel to lowercase single-spaced tokens', async () => {
    const { page } = expectPage(await render('/about'));
    expect(page.link_list).toContainEqual(
      expect.objectContaining({
        url: `${home}/nofollow-only`,
        rel: 'nofollow sponsored',
        dom_position: 'footer',
      }),
    );
    expect(page.link_list).toContainEqual(
      expect.objectContaining({ url: `${home}/`, rel: 'nofollow noopener', dom_position: 'main' }),
    );
  });

  test('point across hosts as absolute normalized URLs', async () => {
    const { page } = expectPage(await render('/'));
    expect(page.link_list).toContainEqual(
      expect.objectContaining({ url: `${site.baseUrls[1]}/`, dom_position: 'aside' }),
    );
  });
});

describe('console errors', () => {
  test('are console.error calls and uncaught exceptions, with their script URL', async () => {
    const { page } = expectPage(await render('/console-error'));
    expect(page.console_errors).toEqual([
      {
        message: 'demo console error: widget failed to start',
        source_url: `${home}/static/console-error.js`,
      },
      { message: 'Error: demo uncaught exception', source_url: `${home}/static/console-error.js` },
    ]);
    expect(page.health_signal.has_console_error).toBe(true);
  });
});

describe('conditional fetch', () => {
  test('a 304 to the ETag or to Last-Modified is not_modified, sent on the document only', async () => {
    const { page } = expectPage(await render('/articles/3'));
    site.accessLog.clear();
    const byEtag = await render('/articles/3', { etag: page.etag });
    expect(byEtag).toEqual(
      expect.objectContaining({ kind: 'not_modified', url: `${home}/articles/3`, etag: page.etag }),
    );
    const byDate = await render('/articles/3', { lastModifiedAt: page.last_modified_at });
    expect(byDate).toEqual(
      expect.objectContaining({ kind: 'not_modified', lastModifiedAt: page.last_modified_at }),
    );
    expect(site.accessLog.list().map(({ path, status }) => `${path} ${status}`)).toEqual([
      '/articles/3 304',
      '/articles/3 304',
    ]);
  });

  test('a stale validator gets the full render', async () => {
    const outcome = await render('/articles/3', { etag: '"outdated"' });
    expect(expectPage(outcome).page.http_status).toBe(200);
  });
});

describe('failures', () => {
  test('a slow document is a navigation_timeout', async () => {
    const failed = expectFailed(await render('/slow?delay_ms=4000', { timeoutMs: 800 }));
    expect(failed.failReason).toBe('navigation_timeout');
  });

  test('a selector that never appears is a wait_selector_timeout', async () => {
    const failed = expectFailed(
      await render('/csr', { waitSelector: '#never-there', timeoutMs: 1200 }),
    );
    expect(failed.failReason).toBe('wait_selector_timeout');
    expect(failed.httpStatus).toBe(200);
  });

  test('an invalid selector is refused before anything is fetched', async () => {
    site.accessLog.clear();
    expect(await render('/csr', { waitSelector: 'div[' })).toEqual(
      expect.objectContaining({ kind: 'refused', refusalReason: 'invalid_wait_selector' }),
    );
    expect(site.accessLog.list()).toEqual([]);
  });

  test.each([
    ['/status?code=404', 'http_client_error', 404],
    ['/status?code=503', 'http_server_error', 503],
    ['/status?code=429', 'origin_throttled', 429],
    ['/challenge', 'challenge_detected', 403],
  ])('%s fails with %s', async (path, failReason, httpStatus) => {
    expect(expectFailed(await render(path))).toEqual(
      expect.objectContaining({ failReason, httpStatus }),
    );
  });

  test('rendered HTML over the limit is content_too_large', async () => {
    const failed = expectFailed(await render(`/large?bytes=${MAX_CONTENT_BYTES + 1000}`));
    expect(failed.failReason).toBe('content_too_large');
  });

  test('an unresolvable name is dns_resolution_failed; a closed port connection_failed', async () => {
    expect(expectFailed(await render('http://unresolvable.test/')).failReason).toBe(
      'dns_resolution_failed',
    );
    const closed = await startConnectionCountingListener('127.0.0.3');
    await closed.close();
    expect(expectFailed(await render(`http://127.0.0.3:${closed.port}/`)).failReason).toBe(
      'connection_failed',
    );
  });

  test('URLs that cannot be crawled are refused', async () => {
    expect(await render('ftp://127.0.0.2/file')).toEqual(
      expect.objectContaining({ kind: 'refused', refusalReason: 'unsupported_scheme' }),
    );
    expect(await render('http://')).toEqual(
      expect.objectContaining({ kind: 'refused', refusalReason: 'invalid_url' }),
    );
  });
});

describe('a refused destination is never contacted', () => {
  const forbiddenOrigin = () => `http://127.0.0.9:${forbidden.port}`;

  test('as the page itself', async () => {
    expect(await render(`${forbiddenOrigin()}/`)).toEqual(
      expect.objectContaining({
        kind: 'refused',
        refusalReason: 'destination_refused',
        addressCategory: 'loopback',
      }),
    );
  });

  test('as a redirect target, over http and over https (CONNECT)', async () => {
    for (const target of [`${forbiddenOrigin()}/`, `https://127.0.0.9:${forbidden.port}/`]) {
      const outcome = await render(`/redirect?to=${encodeURIComponent(target)}`);
      expect(outcome).toEqual(
        expect.objectContaining({ kind: 'refused', refusalReason: 'destination_refused' }),
      );
    }
  });

  test('as subresources, iframe, XHR and WebSocket of an allowed page', async () => {
    const { page } = expectPage(await render(`/references?target=127.0.0.9:${forbidden.port}`));
    const toForbidden = page.network_log.filter(
      (entry) => new URL(entry.url).host === `127.0.0.9:${forbidden.port}`,
    );
    expect(new Set(toForbidden.map((entry) => entry.type))).toEqual(
      new Set(['script', 'stylesheet', 'document', 'xhr', 'websocket']),
    );
    expect(toForbidden.filter((entry) => entry.http_status !== null)).toEqual([]);
    expect(page.fetch_status).toBe('done');
    expect(page.link_list).toContainEqual(
      expect.objectContaining({ url: `${forbiddenOrigin()}/link` }),
    );
  });

  test('by a plain fetch, directly or by redirect', async () => {
    const direct = await engine.render({
      url: `${forbiddenOrigin()}/robots.txt`,
      shouldRender: false,
      timeoutMs: 3000,
    });
    expect(direct).toEqual(
      expect.objectContaining({ kind: 'refused', refusalReason: 'destination_refused' }),
    );
    const redirected = await engine.render({
      url: `${home}/redirect?to=${encodeURIComponent(`${forbiddenOrigin()}/robots.txt`)}`,
      shouldRender: false,
      timeoutMs: 3000,
    });
    expect(redirected).toEqual(
      expect.objectContaining({ kind: 'refused', refusalReason: 'destination_refused' }),
    );
  });

  afterAll(() => {
    expect(forbidden.connectionCount()).toBe(0);
  });
});

describe('other page shapes', () => {
  test('blank content is fetch_status empty', async () => {
    const { page, statistics } = expectPage(await render('/empty', { waitSelector: '#content' }));
    expect(page.fetch_status).toBe('empty');
    expect(statistics.text_character_count).toBe(0);
  });

  test('an alert does not block the page and a popup is never opened', async () => {
    site.accessLog.clear();
    const { page } = expectPage(await render('/interruptions', { waitSelector: '#after' }));
    expect(page.rendered_html).toContain('after the alert');
    expect(site.accessLog.list().map((entry) => entry.path)).not.toContain('/popup-target');
  });

  test('a redirect reports the final URL, its hash and both hops', async () => {
    const { page } = expectPage(await render('/redirect?to=/about'));
    expect(page.url).toBe(`${home}/redirect?to=/about`);
    expect(page.final_url).toBe(`${home}/about`);
    expect(page.health_signal.redirect_target_hash).toBe(urlHash(`${home}/about`));
    expect(page.network_log.slice(0, 2).map((entry) => [entry.type, entry.http_status])).toEqual([
      ['document', 302],
      ['document', 200],
    ]);
  });
});

describe('should_render = false', () => {
  const fetchPlain = (path: string, overrides: Partial<RenderRequest> = {}) =>
    engine.render({ url: `${home}${path}`, shouldRender: false, timeoutMs: 3000, ...overrides });

  test('returns the raw body in the same page object shape', async () => {
    const { page, statistics } = expectPage(await fetchPlain('/robots.txt'));
    expect(Object.keys(page).sort()).toEqual([...CONTRACT_PAGE_FIELDS].sort());
    expect(page.is_rendered).toBe(false);
    expect(page.rendered_html).toBeNull();
    expect(page.response_body).toContain('Disallow: /private/');
    expect(page.content_hash).toBe(contentHash(page.response_body as string));
    expect(page.network_log).toEqual([]);
    expect(page.console_errors).toEqual([]);
    expect(page.link_list).toEqual([]);
    expect(page.health_signal).toEqual({
      xhr_total_count: 0,
      xhr_error_count: 0,
      xhr_throttled_count: 0,
      xhr_denied_count: 0,
      has_console_error: false,
      redirect_target_hash: urlHash(`${home}/robots.txt`),
    });
    expect(statistics.html_byte_count).toBe(Buffer.byteLength(page.response_body as string));
    expect(site.accessLog.list('127.0.0.2').at(-1)?.userAgent).toBe(
      'RenderCrawler/0.1 (+https://example.invalid/contact)',
    );
  });

  test('recognizes 304 and keeps the status of a 4xx', async () => {
    const { page } = expectPage(await fetchPlain('/sitemap.xml'));
    expect(await fetchPlain('/sitemap.xml', { etag: page.etag })).toEqual(
      expect.objectContaining({ kind: 'not_modified', etag: page.etag }),
    );
    expect(await fetchPlain('/missing.txt')).toEqual(
      expect.objectContaining({ kind: 'failed', failReason: 'http_client_error', httpStatus: 404 }),
    );
  });
});

describe('the hooks the rate-limit layer dates requests by', () => {
  test('dispatch fires before the origin receives the request, the answer after, once each', async () => {
    for (const shouldRender of [true, false]) {
      const events: Array<{ name: string; atMs: number }> = [];
      site.accessLog.clear();
      await render(`/articles/2?hooks=${shouldRender}`, {
        shouldRender,
        onDispatch: () => events.push({ name: 'dispatch', atMs: Date.now() }),
        onOriginAnswered: () => events.push({ name: 'answered', atMs: Date.now() }),
      });
      const arrival = site.accessLog.list().find((entry) => entry.path.startsWith('/articles/2'));
      expect(events.map((event) => event.name)).toEqual(['dispatch', 'answered']);
      expect(events[0].atMs).toBeLessThanOrEqual(arrival?.receivedAtMs as number);
      expect(events[1].atMs).toBeGreaterThanOrEqual(arrival?.receivedAtMs as number);
    }
  });

  test('neither fires for a render refused before anything was sent', async () => {
    const events: string[] = [];
    const outcome = await render('/articles/3', {
      waitSelector: 'a[',
      onDispatch: () => events.push('dispatch'),
      onOriginAnswered: () => events.push('answered'),
    });
    expect(outcome.kind).toBe('refused');
    expect(events).toEqual([]);
  });
});

describe('the demo site as a crawl target', () => {
  test('following rendered links (no nofollow, no disallowed path) reaches exactly the expected set', async () => {
    const rendered = new Set<string>();
    let frontier = [`${home}/`];
    while (frontier.length > 0) {
      frontier.forEach((url) => rendered.add(url));
      const pages = await Promise.all(frontier.map((url) => render(url)));
      const found = pages
        .flatMap((outcome) => expectPage(outcome).page.link_list)
        .filter((link) => !link.rel.split(' ').includes('nofollow'))
        .map((link) => link.url)
        .filter((url) => !new URL(url).pathname.startsWith(DISALLOWED_PATH_PREFIX));
      frontier = [...new Set(found)].filter((url) => !rendered.has(url));
    }
    expect([...rendered].sort()).toEqual(site.reachableUrls);
  });
});

describe('capacity', () => {
  test('renders in parallel up to the pool size and reports free pages', async () => {
    expect(engine.freePageCount).toBe(4);
    const paths = ['/articles/1', '/articles/2', '/articles/3', '/about', '/'];
    const renders = paths.map((path) => render(path));
    expect(engine.freePageCount).toBeLessThanOrEqual(4);
    const outcomes = await Promise.all(renders);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(paths.map(() => 'page'));
    const statistics = engine.statistics();
    expect(statistics.freePageCount).toBe(4);
    expect(statistics.queuedRenderCount).toBe(0);
    expect(statistics.outcomeCounts.page).toBeGreaterThanOrEqual(5);
    expect(statistics.browserLossCount).toBe(0);
  });
});
