import type { Browser } from 'puppeteer-core';
import { launchTestBrowser } from '../../common/testing/launch-test-browser';
import {
  expectTokenRefusedThenForgotten,
  openOperatorPage,
  rowCells,
  textOf,
} from '../../common/testing/operator-page-browser';
import { takeOperatorScreenshot } from '../../common/testing/operator-page-screenshot';
import { doneResult, failedResult, healthySignal, ruleFor } from '../testing/contract-fixtures';
import {
  FAKE_DOWNLOADER_TOKEN,
  startFakeDownloader,
  type FakeDownloader,
} from '../testing/fake-downloader';
import { seedUrls } from '../testing/lease-helpers';
import { ManualClock } from '../testing/manual-clock';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from '../testing/scheduler-test-harness';

// The scheduler's operator page as a person sees it, in a real Chromium: once on a frontier with
// queued, leased, reported and paused domains, once on an empty one (every table then says so).

let browser: Browser;
let downloader: FakeDownloader;
let busy: TestScheduler;
let empty: TestScheduler;

beforeAll(async () => {
  const clock = new ManualClock();
  downloader = await startFakeDownloader();
  busy = await startTestScheduler({
    clock,
    // Four pages with failing XHRs in a window of eight pause a domain for a minute.
    flags: Object.entries({
      'downloader-url': downloader.url,
      'health-window-result-count': '8',
      'health-min-result-count': '4',
      'health-pause-seconds': '60',
    }).flatMap(([name, value]) => [`--${name}`, value]),
    environment: { DOWNLOADER_TOKEN: FAKE_DOWNLOADER_TOKEN },
  });
  const { client } = busy;
  await client.submitRules({
    rule_list: [
      ruleFor('news.example', { min_interval_ms: 0 }),
      ruleFor('shop.example', { verdict: 'partial', min_interval_ms: 0 }),
      ruleFor('broken.example', { min_interval_ms: 0 }),
    ],
  });
  await client.submitSeeds({
    seed_list: [
      ...seedUrls(['news.example'], 3),
      ...seedUrls(['shop.example'], 2),
      ...seedUrls(['broken.example'], 6),
      { url: 'https://new.example/' },
    ],
  });
  // broken.example: four pages whose XHRs mostly fail — the domain pauses.
  const failing = healthySignal({ xhr_total_count: 10, xhr_error_count: 7 });
  for (let round = 0; round < 8; round += 1) {
    clock.advance(1000);
    const lease = await client.leaseTasks({ worker_id: 'w1', task_count: 20 });
    if (lease.task_list.length === 0) continue;
    await client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: lease.task_list.map((task) =>
        task.url.includes('broken.example')
          ? doneResult(task, { health_signal: failing })
          : task.url.endsWith('page-0')
            ? failedResult(task, 'robots_disallowed')
            : doneResult(task),
      ),
    });
    if (round === 0) {
      // Keep one lease live so "in flight" shows.
      clock.advance(1000);
      await client.leaseTasks({ worker_id: 'w2', task_count: 1 });
    }
  }
  empty = await startTestScheduler({ clock: new ManualClock() });
  browser = await launchTestBrowser(['127.0.0.1']);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([busy?.stop(), empty?.stop()]);
  await downloader?.close();
});

test('serves a static page without data or secret, under strict headers', async () => {
  const response = await fetch(`${busy.url}/operator`);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  const html = await response.text();
  for (const text of [
    'Scheduler — URL frontier',
    'Scheduler token (SCHEDULER_TOKEN)',
    '/operator#token=…',
    '<script src="/operator/assets/page.js"></script>',
  ]) {
    expect(html).toContain(text);
  }
  expect(html).not.toContain(TEST_SCHEDULER_TOKEN);
  const script = await (await fetch(`${busy.url}/operator/assets/page.js`)).text();
  expect(script).toContain("'/v1/operator/frontier-summary?limit='");
  expect(script).not.toContain('innerHTML');
  expect((await fetch(`${busy.url}/operator/assets/page.css`)).status).toBe(200);
});

test('shows leases, queue depth, reports and domains, paused first', async () => {
  const { page, pageErrors } = await openOperatorPage(browser, busy.url, TEST_SCHEDULER_TOKEN);
  expect(await page.evaluate(() => window.location.href)).not.toContain('token');
  expect(await page.evaluate(() => sessionStorage.getItem('scheduler-operator-token'))).toBe(
    TEST_SCHEDULER_TOKEN,
  );
  const summary = await busy.client.getFrontierSummary({ limit: 100 });
  expect(await textOf(page, '#live-lease-count')).toBe(String(summary.live_lease_count));
  expect(summary.live_lease_count).toBeGreaterThanOrEqual(1);
  expect(await textOf(page, '#paused-domain-count')).toBe('1');

  const states = Object.fromEntries(
    (await rowCells(page, '#url-state-table tbody tr')).map(([state, count]) => [state, count]),
  );
  expect(states.waiting_for_rule).toBe('1');
  const reports = Object.fromEntries(
    (await rowCells(page, '#report-status-table tbody tr')).map(([status, count]) => [
      status,
      Number(count),
    ]),
  );
  expect(reports.failed).toBeGreaterThanOrEqual(1);
  expect(reports.done).toBeGreaterThanOrEqual(4);

  const domains = await rowCells(page, '#domain-table tbody tr');
  expect(domains[0].slice(0, 2)).toEqual(['broken.example', 'csr']);
  expect(domains[0][4]).toBe('paused');
  expect(domains[0][5]).toMatch(/\(in 5\d s\)$/);
  // shop.example is all done and idle: left out; news.example still has a live lease.
  expect(domains.map((cells) => cells[0]).sort()).toEqual(['broken.example', 'news.example']);
  expect(pageErrors).toEqual([]);
  expect((await takeOperatorScreenshot(page, 'scheduler-operator-full')).length).toBeGreaterThan(
    1000,
  );
  await page.close();
});

test('says so in every empty table, without a script error', async () => {
  const { page, pageErrors } = await openOperatorPage(browser, empty.url, TEST_SCHEDULER_TOKEN);
  expect(await textOf(page, '#status')).toMatch(/^Updated /);
  expect(await rowCells(page, '#report-status-table tbody tr')).toEqual([
    ['done', '0'],
    ['empty', '0'],
    ['not_modified', '0'],
    ['failed', '0'],
  ]);
  expect(await rowCells(page, '#domain-table tbody tr')).toEqual([
    ['no domain with queued, leased, paused or probing URLs'],
  ]);
  expect(
    await page.$eval('#domain-table tbody td', (cell) => (cell as HTMLTableCellElement).colSpan),
  ).toBe(6);
  expect(await textOf(page, '#live-lease-count')).toBe('0');
  expect(pageErrors).toEqual([]);
  expect((await takeOperatorScreenshot(page, 'scheduler-operator-empty')).length).toBeGreaterThan(
    1000,
  );
  await page.close();
});

test('asks for the token when it is refused, and forgets it', () =>
  expectTokenRefusedThenForgotten(browser, empty.url, TEST_SCHEDULER_TOKEN));
