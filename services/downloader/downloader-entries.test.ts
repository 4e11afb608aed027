import { freeLoopbackPort } from '../common/testing/free-loopback-port';
import { DemoSite, startDemoSite } from '../../scripts/demo-site/demo-site';
import { ContractHttpError, TooManyRequestsError } from '../common/contract-runtime/client-errors';
import { urlHash } from '../common/url/url-hash';
import {
  ConnectionCountingListener,
  startConnectionCountingListener,
} from './egress/egress-test-support';
import { startScriptedOrigin, type ScriptedOrigin } from './testing/scripted-origin';
import {
  startTestDownloader,
  TEST_DOWNLOADER_TOKEN,
  waitUntil,
  type TestDownloader,
} from './testing/downloader-test-harness';

// Entries B (POST /v1/render) and C (POST /v1/probe) over real HTTP against the real service:
// one downloader (one Chromium) and one demo site for the file. Each test uses its own host, so
// one test's rate limit never holds back another's.
let site: DemoSite;
let downloader: TestDownloader;
let forbidden: ConnectionCountingListener;
/** robots.txt answers 404 (allow all). */
let robotsMissing: ScriptedOrigin;
/** robots.txt answers 500 (disallow all). */
let robotsFailing: ScriptedOrigin;
/** /flaky answers 503 while `isFlaky`; robots.txt 404. */
let flaky: ScriptedOrigin;
let isFlaky = true;
/** Allowed but never to be contacted: an invalid wait_selector must be refused before robots.txt. */
let untouched: ScriptedOrigin;
/** A port on an allowed address where nothing listens. */
let unreachableBaseUrl: string;

const [CSR_HOST, LIMIT_HOST, PLAIN_HOST] = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  forbidden = await startConnectionCountingListener('127.0.0.9');
  robotsMissing = await startScriptedOrigin('127.0.0.5', (path) =>
    path === '/robots.txt' ? { status: 404 } : { status: 200 },
  );
  robotsFailing = await startScriptedOrigin('127.0.0.6', (path) =>
    path === '/robots.txt' ? { status: 500 } : { status: 200 },
  );
  flaky = await startScriptedOrigin('127.0.0.7', (path) =>
    path === '/flaky' && isFlaky ? { status: 503 } : { status: path === '/robots.txt' ? 404 : 200 },
  );
  untouched = await startScriptedOrigin('127.0.0.10', () => ({ status: 200 }));
  unreachableBaseUrl = `http://127.0.0.8:${await freeLoopbackPort('127.0.0.8')}`;
  downloader = await startTestDownloader({
    // Exactly the addresses served from (127.0.0.7 by the backoff test's own downloader); 127.0.0.9
    // stays refused.
    allowDestinations: [...site.hosts, '127.0.0.5', '127.0.0.6', '127.0.0.8/32', '127.0.0.10'],
  });
});

afterAll(async () => {
  await downloader?.dispose();
  await Promise.all([
    site?.stop(),
    forbidden?.close(),
    robotsMissing?.close(),
    robotsFailing?.close(),
    flaky?.close(),
    untouched?.close(),
  ]);
});

const baseUrlOf = (host: string) => site.baseUrls[site.hosts.indexOf(host)];

async function errorOf(promise: Promise<unknown>): Promise<ContractHttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ContractHttpError) return error;
    throw error;
  }
  throw new Error('expected an error answer');
}

async function rowOf(domain: string, client = downloader.client) {
  const view = await client.listDomainRuntime({});
  return view.domain_list.find((row) => row.domain === domain);
}

/** Until the domain's last request finished and its spacing margin (100 ms) has passed. */
async function domainFree(domain: string): Promise<void> {
  await waitUntil(async () => ((await rowOf(domain))?.in_flight_count ?? 0) === 0);
  await new Promise((resolve) => setTimeout(resolve, 150));
}

describe('entry B renders a page whose content arrives by XHR', () => {
  let page: Awaited<ReturnType<TestDownloader['client']['renderPage']>>;

  beforeAll(async () => {
    page = await downloader.client.renderPage({
      url: `${baseUrlOf(CSR_HOST)}/csr`,
      wait_selector: '#content',
      min_interval_ms: 0,
    });
  });

  test('with its text, its links, and its page object stored', async () => {
    expect(page.rendered_html).toContain('Articles delivered by XHR after the page loaded.');
    expect(page.fetch_status).toBe('done');
    expect(page.object_id).toMatch(/^[0-9a-f]{32}$/);
    expect(page.url_hash).toBe(urlHash(page.url));
    expect(await downloader.client.getWebPageObject({ object_id: page.object_id })).toEqual(page);
  });

  test('with its failing XHRs counted in health_signal', () => {
    expect(page.health_signal).toEqual({
      xhr_total_count: 5,
      xhr_error_count: 1,
      xhr_throttled_count: 1,
      xhr_denied_count: 1,
      has_console_error: false,
      redirect_target_hash: urlHash(`${baseUrlOf(CSR_HOST)}/csr`),
    });
  });

  test('with nofollow links marked and every link placed in its landmark', () => {
    expect(page.link_list).toContainEqual({
      url: `${baseUrlOf(CSR_HOST)}/nofollow-only`,
      rel: 'nofollow sponsored',
      dom_position: 'footer',
      anchor_text: 'Sponsored',
    });
    expect(page.link_list).toContainEqual(
      expect.objectContaining({
        url: `${baseUrlOf(CSR_HOST)}/articles/4`,
        rel: '',
        dom_position: 'main',
      }),
    );
  });

  test('after robots.txt, with an honest User-Agent carrying the contact URL', () => {
    const requests = site.accessLog.list(CSR_HOST);
    expect(requests[0].path).toBe('/robots.txt');
    expect(requests[1].path).toBe('/csr');
    for (const request of requests)
      expect(request.userAgent).toContain('(+https://crawler.test/contact)');
  });
});

describe('over the limit', () => {
  test('entry B answers 429 with retry_after_seconds and Retry-After; entry C answers has_reached_origin = false', async () => {
    const base = baseUrlOf(LIMIT_HOST);
    await downloader.client.renderPage({ url: `${base}/`, min_interval_ms: 0 });
    const held = await errorOf(
      downloader.client.renderPage({ url: `${base}/about`, min_interval_ms: 3000 }),
    );
    expect(held).toBeInstanceOf(TooManyRequestsError);
    expect(held.status).toBe(429);
    expect(held.body).toMatchObject({ error_code: 'domain_rate_limited' });
    expect(held.body.retry_after_seconds).toBeGreaterThanOrEqual(3);
    expect(held.body.retry_after_seconds).toBeLessThanOrEqual(4);
    const raw = await fetch(`${downloader.url}/v1/render`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${TEST_DOWNLOADER_TOKEN}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ url: `${base}/about`, min_interval_ms: 3000 }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBe((await raw.json()).retry_after_seconds);

    const probe = await downloader.client.probeUrl({ url: `${base}/`, min_interval_ms: 3000 });
    expect(probe).toMatchObject({
      has_reached_origin: false,
      http_status: null,
      health_signal: null,
    });
    expect(site.accessLog.list(LIMIT_HOST).map((entry) => entry.path)).not.toContain('/about');

    const row = await rowOf(LIMIT_HOST);
    expect(row).toMatchObject({
      rate_limit_state: 'over_limit',
      interval_source: 'caller_value',
      min_interval_ms: 0,
    });
    const view = await downloader.client.listDomainRuntime({});
    const counts = Object.fromEntries(
      view.entry_list.map((entry) => [entry.entry_name, entry.over_limit_count]),
    );
    expect(counts.render_endpoint).toBeGreaterThanOrEqual(2);
    expect(counts.probe_endpoint).toBeGreaterThanOrEqual(1);
  });
});

describe('entry C', () => {
  test('probes without storing and reports what the origin answered', async () => {
    const base = baseUrlOf(PLAIN_HOST);
    const ok = await downloader.client.probeUrl({ url: `${base}`, min_interval_ms: 0 });
    expect(ok).toMatchObject({ url: `${base}/`, has_reached_origin: true, http_status: 200 });
    expect(ok.health_signal).toMatchObject({
      xhr_total_count: 0,
      redirect_target_hash: urlHash(`${base}/`),
    });
    expect(ok.probed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(ok.elapsed_ms).toBeGreaterThanOrEqual(0);
    await domainFree(PLAIN_HOST);

    const missing = await downloader.client.probeUrl({
      url: `${base}/no-such-page`,
      min_interval_ms: 0,
    });
    expect(missing).toMatchObject({
      has_reached_origin: true,
      http_status: 404,
      health_signal: null,
    });
    // Probes never consult robots.txt (a disallowed path is still a health check of the origin).
    expect(site.accessLog.list(PLAIN_HOST).map((entry) => entry.path)).toEqual([
      '/',
      '/no-such-page',
    ]);

    const nobody = await downloader.client.probeUrl({
      url: `${unreachableBaseUrl}/`,
      min_interval_ms: 0,
    });
    expect(nobody).toMatchObject({
      has_reached_origin: true,
      http_status: null,
      health_signal: null,
    });
  });

  test('can render: the health signal then counts the XHRs', async () => {
    const probe = await downloader.client.probeUrl({
      url: `${baseUrlOf(CSR_HOST)}/csr`,
      should_render: true,
      min_interval_ms: 0,
      timeout_ms: 15_000,
    });
    expect(probe.health_signal).toMatchObject({ xhr_total_count: 5, xhr_error_count: 1 });
  });
});

describe('plain fetches (should_render = false)', () => {
  test('fetch robots.txt and sitemap.xml on the same path, answering the raw body', async () => {
    const base = baseUrlOf(PLAIN_HOST);
    await domainFree(PLAIN_HOST);
    const sitemap = await downloader.client.renderPage({
      url: `${base}/sitemap.xml`,
      should_render: false,
      should_store: false,
      min_interval_ms: 0,
    });
    expect(sitemap).toMatchObject({
      is_rendered: false,
      rendered_html: null,
      network_log: [],
      link_list: [],
    });
    expect(sitemap.response_body).toContain('<urlset');
    expect(
      (await errorOf(downloader.client.getWebPageObject({ object_id: sitemap.object_id }))).status,
    ).toBe(404);
  });
});

describe('bad input is refused with the contract error and changes nothing', () => {
  test.each([
    [{ url: 'not a url' }, 400, 'invalid_request'],
    [{ url: 'http://127.0.0.2/', timeout_ms: 500 }, 400, 'invalid_request'],
    [{ url: 'http://127.0.0.2/', min_interval_ms: -1 }, 400, 'invalid_request'],
    [{ url: 'http://user:secret@127.0.0.2/' }, 400, 'invalid_request'],
    // Not an absolute http(s) URL: the schema's pattern says so (CONTRACT.md §二).
    [{ url: 'ftp://127.0.0.2/file' }, 400, 'invalid_request'],
    [{ url: 'file:///etc/passwd' }, 400, 'invalid_request'],
    [{ url: 'http:127.0.0.2/' }, 400, 'invalid_request'],
    [{ url: 'http://127.0.0.2/a b' }, 400, 'invalid_request'],
    // Allowed by the pattern, refused by the operator's destination policy.
    [{ url: 'http://10.1.2.3/' }, 400, 'destination_not_allowed'],
  ])('%j → %i %s', async (body, status, errorCode) => {
    const before = site.accessLog.list().length;
    const response = await fetch(`${downloader.url}/v1/render`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${TEST_DOWNLOADER_TOKEN}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(status);
    expect((await response.json()).error_code).toBe(errorCode);
    expect(site.accessLog.list().length).toBe(before);
  });

  test('an invalid wait_selector is refused before it reaches the origin or moves the rate limit', async () => {
    const before = await rowOf(CSR_HOST);
    const refused = await errorOf(
      downloader.client.renderPage({
        url: `${baseUrlOf(CSR_HOST)}/about`,
        wait_selector: 'a[',
        min_interval_ms: 0,
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.errorCode).toBe('invalid_request');
    expect(site.accessLog.list(CSR_HOST).map((entry) => entry.path)).not.toContain('/about');
    expect(await rowOf(CSR_HOST)).toMatchObject({ last_request_at: before?.last_request_at });
    // A domain never seen before: not even its robots.txt is fetched, and it gets no row.
    const fresh = await errorOf(
      downloader.client.renderPage({ url: `${untouched.baseUrl}/page`, wait_selector: '##' }),
    );
    expect(fresh.errorCode).toBe('invalid_request');
    expect(untouched.requestedPaths).toEqual([]);
    expect(await rowOf('127.0.0.10')).toBeUndefined();
  });

  test('objects: an unknown id is 404 object_not_found, a malformed one 400', async () => {
    const unknown = await errorOf(
      downloader.client.getWebPageObject({ object_id: '0'.repeat(32) }),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.errorCode).toBe('object_not_found');
    expect((await errorOf(downloader.client.getWebPageObject({ object_id: 'nope' }))).status).toBe(
      400,
    );
  });
});

describe('a destination outside the allow-list is refused at once and never contacted', () => {
  const forbiddenUrl = () => `http://127.0.0.9:${forbidden.port}`;

  test('as the URL to render or probe', async () => {
    const startedAt = Date.now();
    const render = await errorOf(downloader.client.renderPage({ url: `${forbiddenUrl()}/` }));
    expect(render.status).toBe(400);
    expect(render.errorCode).toBe('destination_not_allowed');
    expect(Date.now() - startedAt).toBeLessThan(500);
    const probe = await errorOf(downloader.client.probeUrl({ url: `${forbiddenUrl()}/` }));
    expect(probe.errorCode).toBe('destination_not_allowed');
    expect(forbidden.connectionCount()).toBe(0);
  });

  test('as a redirect target, and as the subresources of an allowed page', async () => {
    const base = baseUrlOf(CSR_HOST);
    await domainFree(CSR_HOST);
    const redirect = await errorOf(
      downloader.client.renderPage({
        url: `${base}/redirect?to=${encodeURIComponent(`${forbiddenUrl()}/landing`)}`,
        min_interval_ms: 0,
      }),
    );
    expect(redirect.errorCode).toBe('destination_not_allowed');
    await domainFree(CSR_HOST);
    const page = await downloader.client.renderPage({
      url: `${base}/references?target=127.0.0.9:${forbidden.port}`,
      min_interval_ms: 0,
      should_store: false,
    });
    const toForbidden = page.network_log.filter(
      (entry) => new URL(entry.url).hostname === '127.0.0.9',
    );
    expect(toForbidden.length).toBeGreaterThan(0);
    expect(toForbidden.every((entry) => entry.http_status === null)).toBe(true);
    expect(forbidden.connectionCount()).toBe(0);
  });
});

describe('robots.txt (RFC 9309), fetched once through the same path and cached', () => {
  test('a disallowed path is 502 robots_disallowed and never fetched', async () => {
    const base = baseUrlOf(CSR_HOST);
    await domainFree(CSR_HOST);
    const refused = await errorOf(
      downloader.client.renderPage({ url: `${base}/private/report`, min_interval_ms: 0 }),
    );
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({
      error_code: 'render_failed',
      fail_reason: 'robots_disallowed',
    });
    const paths = site.accessLog.list(CSR_HOST).map((entry) => entry.path);
    expect(paths).not.toContain('/private/report');
    expect(paths.filter((path) => path === '/robots.txt')).toHaveLength(1);
  });

  test('4xx allows everything; 5xx and no answer disallow everything', async () => {
    const allowed = await downloader.client.renderPage({
      url: `${robotsMissing.baseUrl}/private/x`,
      min_interval_ms: 0,
    });
    expect(allowed.http_status).toBe(200);
    expect(robotsMissing.requestedPaths).toEqual(['/robots.txt', '/private/x']);

    const failing = await errorOf(
      downloader.client.renderPage({ url: `${robotsFailing.baseUrl}/`, min_interval_ms: 0 }),
    );
    expect(failing.body.fail_reason).toBe('robots_disallowed');
    expect(robotsFailing.requestedPaths).toEqual(['/robots.txt']);

    const unreachable = await errorOf(
      downloader.client.renderPage({ url: `${unreachableBaseUrl}/`, min_interval_ms: 0 }),
    );
    expect(unreachable.body.fail_reason).toBe('robots_disallowed');
  });
});

describe('politeness backoff', () => {
  // A downloader of its own whose first backoff lasts 1 s (base 500 ms · 2^1, cap 4 s;
  // FAST_POLITENESS_ARGUMENTS: pause after 3 errors for 2 s): the shared one's 200 ms window
  // closed before the "held" request on a loaded CI machine, which then reached the origin.
  let polite: TestDownloader;
  beforeAll(async () => {
    polite = await startTestDownloader({
      allowDestinations: ['127.0.0.7'],
      extraArguments: ['--backoff-base-ms', '500', '--backoff-cap-ms', '4000'],
    });
  });
  afterAll(async () => {
    await polite?.dispose();
  });
  const flakyRow = () => rowOf('127.0.0.7', polite.client);

  test('holds a domain back 2^k after 5xx answers, pauses it after the threshold, resets on success', async () => {
    const url = `${flaky.baseUrl}/flaky`;
    const render = () => polite.client.renderPage({ url, min_interval_ms: 0, should_store: false });
    const failure = await errorOf(render());
    expect(failure.body).toMatchObject({
      error_code: 'render_failed',
      fail_reason: 'http_server_error',
    });
    expect(await flakyRow()).toMatchObject({
      rate_limit_state: 'backing_off',
      consecutive_error_count: 1,
    });
    expect((await flakyRow())?.backoff_until_at).not.toBeNull();
    const held = await errorOf(render());
    expect(held.status).toBe(429);
    expect(held.body.retry_after_seconds).toBe(1);

    for (const count of [2, 3]) {
      await waitUntil(async () => (await flakyRow())?.rate_limit_state === 'normal', 5000);
      expect((await errorOf(render())).body.fail_reason).toBe('http_server_error');
      expect((await flakyRow())?.consecutive_error_count).toBe(count);
    }
    expect((await flakyRow())?.rate_limit_state).toBe('paused');
    expect(await polite.client.probeUrl({ url, min_interval_ms: 0 })).toMatchObject({
      has_reached_origin: false,
    });
    const requestsWhilePaused = flaky.requestedPaths.length;

    isFlaky = false;
    await waitUntil(async () => (await flakyRow())?.rate_limit_state !== 'paused', 5000);
    expect(flaky.requestedPaths.length).toBe(requestsWhilePaused);
    expect((await render()).http_status).toBe(200);
    expect(await flakyRow()).toMatchObject({
      consecutive_error_count: 0,
      backoff_until_at: null,
    });
  });
});
