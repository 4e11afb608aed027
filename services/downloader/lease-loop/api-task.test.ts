import { DemoSite, startDemoSite } from '../../../scripts/demo-site/demo-site';
import { normalizeUrl } from '../../common/url/normalize-url';
import { urlHash } from '../../common/url/url-hash';
import {
  FAKE_SCHEDULER_TOKEN,
  leaseTaskFor,
  startFakeScheduler,
  type FakeScheduler,
  type LeaseTask,
  type ReportResult,
} from '../testing/fake-scheduler';
import { startTestDownloader, type TestDownloader } from '../testing/downloader-test-harness';
import { leaseAndReportOn } from '../testing/lease-and-report';

// Entry A with v2 tasks: `render_strategy` api fetches the page's JSON endpoint without Chromium;
// a mapping or an answer that does not fit renders; a task without the field (a v1 scheduler)
// renders. The demo's first host is client-rendered: its articles come from /api/page.
let site: DemoSite;
let scheduler: FakeScheduler;
let downloader: TestDownloader;

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0, clientRenderedHosts: ['127.0.0.2'] });
  scheduler = await startFakeScheduler();
  downloader = await startTestDownloader({
    allowDestinations: site.hosts,
    scheduler: { url: scheduler.url, token: FAKE_SCHEDULER_TOKEN },
    extraArguments: ['--page-pool-size', '2', '--lease-wait-ms', '2000'],
  });
});

afterAll(async () => {
  await downloader?.dispose();
  await Promise.all([site?.stop(), scheduler?.close()]);
});

const base = () => site.baseUrls[0];
const apiEndpointOf = (contentPointer = '') => ({
  page_url_pattern: `^${base().replace(/\./g, '\\.')}(?<path>/[^?#]*)$`,
  endpoint_url_template: `${base()}/api/page?path={path}`,
  content_pointer: contentPointer,
});
const apiTask = (path: string, overrides: Partial<LeaseTask> = {}) =>
  leaseTaskFor(`${base()}${path}`, {
    render_strategy: 'api',
    api_endpoint: apiEndpointOf(),
    ...overrides,
  });
const pathsSeen = () => site.accessLog.list(site.hosts[0]).map((entry) => entry.path);

async function metric(line: string): Promise<number> {
  const text = await (await fetch(`${downloader.url}/metrics`)).text();
  const found = text.split('\n').find((candidate) => candidate.startsWith(line));
  return found === undefined ? 0 : Number(found.split(' ').pop());
}

test('an api task fetches the endpoint without Chromium and stores the JSON as the page', async () => {
  site.accessLog.clear();
  const apiCountBefore = await metric(
    'downloader_lease_task_strategy_total{leased_strategy="api",render_strategy="api"}',
  );
  const task = apiTask('/articles/1', { etag: '"page-etag"' });
  const [result] = await leaseAndReportOn(scheduler, [task]);
  const endpointUrl = normalizeUrl(`${base()}/api/page?path=%2Farticles%2F1`);
  expect(result).toMatchObject({
    url_hash: task.url_hash,
    render_strategy: 'api',
    fetch_status: 'done',
    fail_reason: null,
    link_list: [],
    // The page's validators stay with the URL: the endpoint's are not the page's.
    etag: '"page-etag"',
    health_signal: {
      xhr_total_count: 0,
      xhr_error_count: 0,
      xhr_throttled_count: 0,
      xhr_denied_count: 0,
      has_console_error: false,
      redirect_target_hash: urlHash(endpointUrl),
    },
  });
  expect(result.statistics).toMatchObject({ link_count: 0 });
  expect(result.statistics?.text_character_count).toBeGreaterThan(0);
  // Only the endpoint (and robots.txt) reached the origin: no page, no script, no browser.
  expect(pathsSeen().filter((path) => path !== '/robots.txt')).toEqual([
    '/api/page?path=%2Farticles%2F1',
  ]);
  const stored = await downloader.client.getWebPageObject({
    object_id: result.object_id as string,
  });
  expect(stored).toMatchObject({
    url: task.url,
    url_hash: task.url_hash,
    final_url: endpointUrl,
    is_rendered: false,
    rendered_html: null,
    network_log: [],
    console_errors: [],
    link_list: [],
    fetch_status: 'done',
  });
  expect(stored.content_type).toMatch(/^application\/json/);
  expect(JSON.parse(stored.response_body as string)).toMatchObject({
    heading: 'First article',
    text: 'The first article body.',
  });
  expect(
    await metric(
      'downloader_lease_task_strategy_total{leased_strategy="api",render_strategy="api"}',
    ),
  ).toBe(apiCountBefore + 1);
});

test('robots.txt is checked for the page too: an endpoint it allows does not open a disallowed page', async () => {
  site.accessLog.clear();
  const [result] = await leaseAndReportOn(scheduler, [apiTask('/private/report')]);
  expect(result).toMatchObject({
    render_strategy: 'api',
    fetch_status: 'failed',
    fail_reason: 'robots_disallowed',
  });
  expect(pathsSeen().filter((path) => path !== '/robots.txt')).toEqual([]);
});

test('a mapping that does not fit the URL, or an answer without the pointer, renders the page', async () => {
  site.accessLog.clear();
  const unmatched = leaseTaskFor(`${base()}/articles/2`, {
    render_strategy: 'api',
    api_endpoint: { ...apiEndpointOf(), page_url_pattern: '^http://elsewhere\\.test/(?<path>.*)$' },
  });
  const noPointer = apiTask('/articles/3', { api_endpoint: apiEndpointOf('/no/such/value') });
  const results = await leaseAndReportOn(scheduler, [unmatched, noPointer]);
  const byPath = new Map(results.map((result) => [new URL(result.url).pathname, result]));
  const second = byPath.get('/articles/2') as ReportResult;
  expect(second).toMatchObject({ render_strategy: 'render', fetch_status: 'done' });
  // Rendered: the article's links, built in the browser from /api/page, are in the report.
  expect(second.link_list?.map((link) => new URL(link.url).pathname)).toContain('/articles/3');
  const third = byPath.get('/articles/3') as ReportResult;
  expect(third).toMatchObject({ render_strategy: 'render', fetch_status: 'done' });
  expect(third.link_list?.length).toBeGreaterThan(0);
  const stored = await downloader.client.getWebPageObject({ object_id: third.object_id as string });
  expect(stored.is_rendered).toBe(true);
  expect(pathsSeen()).toEqual(expect.arrayContaining(['/articles/2', '/articles/3']));
});

test('a page the endpoint does not know (it answers 404) is rendered instead', async () => {
  site.accessLog.clear();
  // /csr is covered by the mapping's pattern, but /api/page has no JSON for it.
  const [result] = await leaseAndReportOn(scheduler, [apiTask('/csr')]);
  expect(result).toMatchObject({ render_strategy: 'render', fetch_status: 'done' });
  expect(pathsSeen()).toEqual(expect.arrayContaining(['/api/page?path=%2Fcsr', '/csr']));
  const stored = await downloader.client.getWebPageObject({
    object_id: result.object_id as string,
  });
  expect(stored.is_rendered).toBe(true);
});

test('api tasks of one domain keep its min_interval_ms, measured at the origin', async () => {
  site.accessLog.clear();
  const tasks = [1, 2, 3, 4].map((article) =>
    apiTask(`/articles/${article}`, { min_interval_ms: 300 }),
  );
  const results = await leaseAndReportOn(scheduler, tasks);
  expect(results.map((result) => [result.render_strategy, result.fetch_status])).toEqual(
    tasks.map(() => ['api', 'done']),
  );
  const arrivals = site.accessLog
    .list(site.hosts[0])
    .filter((entry) => entry.path.startsWith('/api/page'))
    .map((entry) => entry.receivedAtMs);
  expect(arrivals).toHaveLength(4);
  for (let index = 1; index < arrivals.length; index += 1) {
    expect(arrivals[index] - arrivals[index - 1]).toBeGreaterThanOrEqual(300);
  }
});

test('a task without render_strategy (a v1 scheduler) is rendered, as before v2', async () => {
  site.accessLog.clear();
  const v1Task = leaseTaskFor(`${base()}/articles/1`);
  expect(v1Task).not.toHaveProperty('render_strategy');
  const [result] = await leaseAndReportOn(scheduler, [v1Task]);
  expect(result).toMatchObject({ render_strategy: 'render', fetch_status: 'done' });
  expect(result.link_list?.map((link) => new URL(link.url).pathname)).toContain('/articles/2');
  expect(pathsSeen()).toEqual(expect.arrayContaining(['/articles/1', '/static/article.js']));
  expect(
    await metric(
      'downloader_lease_task_strategy_total{leased_strategy="render",render_strategy="render"}',
    ),
  ).toBeGreaterThan(0);
});
