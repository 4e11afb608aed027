import type { Browser, Page } from 'puppeteer-core';
import { DemoSite, startDemoSite } from '../../../scripts/demo-site/demo-site';
import { ContractHttpError } from '../../common/contract-runtime/client-errors';
import { launchTestBrowser } from '../../common/testing/launch-test-browser';
import {
  expectTokenRefusedThenForgotten,
  openOperatorPage,
  rowCells as rowCellsOfPage,
  textOf as textOfPage,
} from '../../common/testing/operator-page-browser';
import { takeOperatorScreenshot } from '../../common/testing/operator-page-screenshot';
import {
  startTestDownloader,
  TEST_DOWNLOADER_TOKEN,
  waitUntil,
  type TestDownloader,
} from '../testing/downloader-test-harness';

// The operator page of seed 001 as a person sees it: opened in a real Chromium (the browser talks
// to the downloader's loopback page directly) after some traffic through entries B and C.
let site: DemoSite;
let downloader: TestDownloader;
let idle: TestDownloader;
let browser: Browser;
let page: Page;

const [BUSY_HOST, QUIET_HOST] = ['127.0.0.2', '127.0.0.3'];

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  downloader = await startTestDownloader({
    allowDestinations: site.hosts,
    extraArguments: ['--page-pool-size', '2'],
  });
  idle = await startTestDownloader({ allowDestinations: site.hosts });
  // The page is on the downloader's loopback address; nothing else resolves.
  browser = await launchTestBrowser(['127.0.0.1']);
  // The traffic last, the slow starts done: the busy domain's 8 s interval, running again from its
  // render of /about, must not have passed when the page's render action runs, however slowly a
  // loaded machine starts processes.
  const { client } = downloader;
  await client.renderPage({
    url: `${site.baseUrls[0]}/about`,
    min_interval_ms: 8000,
    should_store: false,
  });
  await client.renderPage({ url: `${site.baseUrls[0]}/`, min_interval_ms: 8000 }).catch((error) => {
    if (!(error instanceof ContractHttpError) || error.status !== 429) throw error;
  });
  await client.probeUrl({ url: `${site.baseUrls[0]}/`, min_interval_ms: 8000 });
  // No min_interval_ms: the global default (1000 ms), recorded as such.
  await client.renderPage({ url: `${site.baseUrls[1]}/about`, should_store: false });
  ({ page } = await openOperatorPage(browser, downloader.url, TEST_DOWNLOADER_TOKEN));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await downloader?.dispose();
  await idle?.dispose();
  await site?.stop();
});

const textOf = (selector: string) => textOfPage(page, selector);
const rowCells = (selector: string) => rowCellsOfPage(page, selector);

test('serves a static page without data or secret, under strict headers', async () => {
  const response = await fetch(`${downloader.url}/operator`);
  expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  const html = await response.text();
  expect(html).not.toContain(TEST_DOWNLOADER_TOKEN);
  expect(html).not.toContain(BUSY_HOST);
  const script = await (await fetch(`${downloader.url}/operator/assets/page.js`)).text();
  expect(script).not.toContain('innerHTML');
  expect((await fetch(`${downloader.url}/v1/operator/domain-runtime`)).status).toBe(401);
});

test('takes the token from the fragment, keeps it in the tab, and removes it from the address bar', async () => {
  expect(await page.evaluate(() => window.location.hash)).toBe('');
  expect(await page.evaluate(() => sessionStorage.getItem('downloader-operator-token'))).toBe(
    TEST_DOWNLOADER_TOKEN,
  );
  expect(await page.$eval('#token-form', (form) => (form as HTMLFormElement).hidden)).toBe(true);
});

test('shows the totals of the last 24 hours', async () => {
  expect(await textOf('#domain-count')).toBe('2');
  expect(await textOf('#in-flight-count')).toBe('0');
  expect(await textOf('#max-concurrent-count')).toBe('8');
  const view = await downloader.client.listDomainRuntime({});
  expect(await textOf('#over-limit-count')).toBe(String(view.summary.over_limit_count));
  expect(view.summary.over_limit_count).toBeGreaterThanOrEqual(2);
  expect(await textOf('#over-limit-ratio')).toBe(
    `${view.summary.over_limit_count} held back / ${view.summary.request_count} requests = ${(
      view.summary.over_limit_ratio * 100
    ).toFixed(2)}%`,
  );
});

test('shows the page pool: its size, bounds and why it has that size', async () => {
  expect(await textOf('#pool-page-count')).toBe('2');
  expect(await textOf('#pool-bounds')).toBe('fixed size');
  expect(await textOf('#pool-busy-count')).toBe('0');
  expect(await textOf('#pool-reason')).toBe('fixed by --page-pool-size');
  expect(await textOf('#pool-waiting')).toBe('0 renders waiting for a page');
});

test('lists each domain with its interval and where it came from, its last request, load and state', async () => {
  const rows = await rowCells('#domain-table tbody tr');
  const byDomain = new Map(rows.map((cells) => [cells[0], cells]));
  const busy = byDomain.get(BUSY_HOST) as string[];
  expect(busy.slice(1, 3)).toEqual(['8,000', "caller's value"]);
  expect(busy[3]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(busy[4]).toBe('0');
  expect(Number(busy[5])).toBeGreaterThanOrEqual(2); // robots.txt and /about
  expect(busy[7]).toBe('RenderProbe');
  const quiet = byDomain.get(QUIET_HOST) as string[];
  expect(quiet.slice(1, 3)).toEqual(['1,000', 'global default']);
  expect(quiet[6]).toMatch(/^(normal|over the limit)$/);
});

test('lists each entry with its fixed over-limit behaviour and its count', async () => {
  const rows = await rowCells('#entry-table tbody tr');
  expect(rows.map((cells) => cells.slice(0, 2))).toEqual([
    ['A · lease loop', 'delay, then run'],
    ['B · POST /v1/render', '429 + retry_after_seconds'],
    ['C · POST /v1/probe', 'has_reached_origin = false'],
  ]);
  expect(Number(rows[1][2])).toBeGreaterThanOrEqual(1);
  expect(Number(rows[2][2])).toBeGreaterThanOrEqual(1);
  expect(rows[2][3]).toContain('Never 429');
});

test('offers no way to change an interval: the row actions reuse the recorded one', async () => {
  const inputs = await page.$$eval('input', (elements) =>
    elements.map((element) => `${element.id} ${element.type}`),
  );
  expect(inputs.sort()).toEqual([
    'action-url url',
    'auto-refresh checkbox',
    'brake-input number',
    'token-input password',
  ]);
  expect(await page.$$('select, textarea, [contenteditable]')).toHaveLength(0);

  // Render on the busy domain: held back by its recorded 8,000 ms.
  await page.click(`#domain-table tr[data-domain="${BUSY_HOST}"] button[data-action="render"]`);
  expect(await textOf('#action-interval')).toContain('min_interval_ms 8,000');
  await page.$eval(
    '#action-url',
    (input, url) => ((input as HTMLInputElement).value = url),
    `${site.baseUrls[0]}/articles/1`,
  );
  await page.click('#action-submit');
  await page.waitForFunction(() =>
    /Held back|Rendered/.test(document.getElementById('action-result')?.textContent ?? ''),
  );
  expect(await textOf('#action-result')).toMatch(
    /^Held back by the rate limit: retry after \d s\.$/,
  );

  // Probe the quiet domain once its interval has passed: it reaches the origin.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  await page.click(`#domain-table tr[data-domain="${QUIET_HOST}"] button[data-action="probe"]`);
  await page.$eval(
    '#action-url',
    (input, url) => ((input as HTMLInputElement).value = url),
    `${site.baseUrls[1]}/`,
  );
  await page.click('#action-submit');
  await page.waitForFunction(() =>
    /origin/.test(document.getElementById('action-result')?.textContent ?? ''),
  );
  expect(await textOf('#action-result')).toMatch(
    /^Reached the origin: http_status 200 in \d+ ms\.$/,
  );
  const probes = site.accessLog.list(QUIET_HOST).filter((entry) => entry.path === '/');
  expect(probes).toHaveLength(1);
  // The action sent the recorded interval: the row keeps 1,000 ms.
  const view = await downloader.client.listDomainRuntime({});
  expect(view.domain_list.find((row) => row.domain === QUIET_HOST)?.min_interval_ms).toBe(1000);
});

test('changes max_concurrent_count online', async () => {
  await page.$eval('#brake-input', (input) => ((input as HTMLInputElement).value = '6'));
  await page.click('#brake-form button[type="submit"]');
  await waitUntil(async () => (await textOf('#max-concurrent-count')) === '6', 5000);
  expect((await downloader.client.getConcurrencyConfig()).max_concurrent_count).toBe(6);
  expect(downloader.core.controller.maxConcurrentCount).toBe(6);
});

test('draws the full page after a refresh, without a script error', async () => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await page.click('#refresh-button');
  await page.waitForFunction(() =>
    document.getElementById('status')?.textContent?.startsWith('Updated'),
  );
  expect((await takeOperatorScreenshot(page, 'downloader-operator-full')).length).toBeGreaterThan(
    1000,
  );
  expect(pageErrors).toEqual([]);
});

test('on a downloader without traffic, says so in the domain table, without a script error', async () => {
  const { page: quietPage, pageErrors } = await openOperatorPage(
    browser,
    idle.url,
    TEST_DOWNLOADER_TOKEN,
  );
  const cells = await quietPage.$$eval('#domain-table tbody tr', (rows) =>
    rows.map((row) =>
      [...row.querySelectorAll('td')].map((cell) => [cell.textContent, cell.colSpan]),
    ),
  );
  expect(cells).toEqual([[['No domain requested within the last 24 hours.', 8]]]);
  expect(await textOfPage(quietPage, '#domain-count')).toBe('0');
  // The entries are fixed: three rows, each with a zero count.
  expect((await rowCellsOfPage(quietPage, '#entry-table tbody tr')).map((row) => row[2])).toEqual([
    '0',
    '0',
    '0',
  ]);
  expect(
    await quietPage.$eval('#next-page-button', (button) => (button as HTMLButtonElement).hidden),
  ).toBe(true);
  expect(
    (await takeOperatorScreenshot(quietPage, 'downloader-operator-empty')).length,
  ).toBeGreaterThan(1000);
  expect(pageErrors).toEqual([]);
  await quietPage.close();
});

test('asks for the token when it is refused, and forgets it', () =>
  expectTokenRefusedThenForgotten(browser, idle.url, TEST_DOWNLOADER_TOKEN));
