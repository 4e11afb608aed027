import { DemoSite, startDemoSite } from '../../../scripts/demo-site/demo-site';
import {
  FAKE_SCHEDULER_TOKEN,
  leaseTaskFor,
  startFakeScheduler,
  type FakeScheduler,
  type LeaseTask,
  type ReportRequest,
  type ReportResult,
} from '../testing/fake-scheduler';
import {
  startTestDownloader,
  TEST_DOWNLOADER_TOKEN,
  waitUntil,
  type TestDownloader,
} from '../testing/downloader-test-harness';
import { leaseAndReportOn } from '../testing/lease-and-report';

// Entry A against a fake scheduler (the generated scheduler router, recording every report) and
// the demo site. One downloader for the file, stopped and restarted by the last test.
let site: DemoSite;
let scheduler: FakeScheduler;
let downloader: TestDownloader;

const PAGE_POOL_SIZE = 2;

function startDownloader(dataDirectory?: string): Promise<TestDownloader> {
  return startTestDownloader({
    allowDestinations: site.hosts,
    scheduler: { url: scheduler.url, token: FAKE_SCHEDULER_TOKEN },
    dataDirectory,
    // Held lease calls end within 2 s, so one that asked for little room does not last a test.
    extraArguments: ['--page-pool-size', String(PAGE_POOL_SIZE), '--lease-wait-ms', '2000'],
  });
}

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  scheduler = await startFakeScheduler();
  downloader = await startDownloader();
});

afterAll(async () => {
  await downloader?.dispose();
  await Promise.all([site?.stop(), scheduler?.close()]);
});

const url = (hostIndex: number, path: string) => `${site.baseUrls[hostIndex]}${path}`;

const leaseAndReport = (tasks: LeaseTask[]) => leaseAndReportOn(scheduler, tasks);

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${downloader.url}/metrics`)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(name));
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

test('leases, renders within the domain limits, and reports every task of the lease', async () => {
  const tasks = [
    leaseTaskFor(url(0, '/csr'), { wait_selector: '#content' }),
    leaseTaskFor(url(0, '/private/report')),
    leaseTaskFor(url(1, '/status?code=500')),
    leaseTaskFor(url(2, '/empty'), { wait_selector: '#content' }),
  ];
  const results = await leaseAndReport(tasks);
  const byPath = new Map(results.map((result) => [new URL(result.url).pathname, result]));
  expect(results).toHaveLength(4);

  const csr = byPath.get('/csr') as ReportResult;
  expect(csr).toMatchObject({ fetch_status: 'done', fail_reason: null });
  expect(csr.health_signal).toMatchObject({ xhr_total_count: 5, xhr_error_count: 1 });
  expect(csr.link_list).toContainEqual(
    expect.objectContaining({ rel: 'nofollow sponsored', dom_position: 'footer' }),
  );
  expect(csr.statistics?.link_count).toBe(csr.link_list?.length);
  const stored = await downloader.client.getWebPageObject({ object_id: csr.object_id as string });
  expect(stored.url).toBe(tasks[0].url);

  expect(byPath.get('/private/report')).toMatchObject({
    fetch_status: 'failed',
    fail_reason: 'robots_disallowed',
    object_id: null,
    link_list: null,
  });
  expect(byPath.get('/status')).toMatchObject({
    fetch_status: 'failed',
    fail_reason: 'http_server_error',
  });
  expect(byPath.get('/empty')).toMatchObject({ fetch_status: 'empty' });
  expect(scheduler.reports.at(-1)?.worker_id).toBe('test-worker');
  expect(site.accessLog.list().map((entry) => entry.path)).not.toContain('/private/report');

  // Reported and acknowledged: the outbox is empty again (the row goes once the answer is read,
  // a moment after the scheduler recorded the report).
  await waitUntil(async () => (await metric('downloader_report_outbox_depth')) === 0);
  const view = await downloader.client.listDomainRuntime({});
  expect(view.domain_list.find((row) => row.domain === site.hosts[0])).toMatchObject({
    interval_source: 'lease_message',
  });
});

test('does not spin on a scheduler that answers an empty lease at once (no long polling)', async () => {
  await waitUntil(() => downloader.core.leaseLoop?.heldCount === 0);
  scheduler.isLongPolling = false;
  try {
    await new Promise((resolve) => setTimeout(resolve, 300)); // a held call ends (tasks queued later)
    scheduler.queue.push(leaseTaskFor(url(0, '/about')));
    await waitUntil(() => scheduler.queue.length === 0);
    const callsBefore = scheduler.leaseCalls.length;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const callCount = scheduler.leaseCalls.length - callsBefore;
    // The poll interval here is 100 ms: about ten calls a second, not hundreds.
    expect(callCount).toBeGreaterThanOrEqual(2);
    expect(callCount).toBeLessThanOrEqual(12);
  } finally {
    scheduler.isLongPolling = true;
  }
});

test('long-polls: the lease call carries wait_ms, and a task queued while it is held is leased at once', async () => {
  await waitUntil(() => downloader.core.leaseLoop?.heldCount === 0);
  await new Promise((resolve) => setTimeout(resolve, 500)); // let the loop park a call
  const callsBefore = scheduler.leaseCalls.length;
  const queuedAtMs = Date.now();
  const [result] = await leaseAndReport([leaseTaskFor(url(1, '/about'))]);
  expect(result.fetch_status).toBe('done');
  const leasing = scheduler.leaseCalls.slice(callsBefore).find((call) => call.leased_count > 0);
  expect(leasing?.wait_ms).toBeGreaterThan(0);
  // Only the held call's 20 ms check stands between the queue and the lease: no poll pause.
  expect(scheduler.leaseCalls.slice(callsBefore).length).toBeLessThanOrEqual(2);
  expect(Date.now() - queuedAtMs).toBeLessThan(10_000);
});

test('asks only for the room it has (backpressure) and delays, never drops, tasks of a busy domain', async () => {
  const tasks = [1, 2, 3].map((article) =>
    leaseTaskFor(url(2, `/articles/${article}`), { min_interval_ms: 400 }),
  );
  const leasesBefore = scheduler.leaseCalls.length;
  site.accessLog.clear();
  const results = await leaseAndReport(tasks);
  expect(results.map((result) => result.fetch_status)).toEqual(['done', 'done', 'done']);
  for (const call of scheduler.leaseCalls.slice(leasesBefore)) {
    expect(call.task_count).toBeLessThanOrEqual(PAGE_POOL_SIZE);
  }
  const starts = site.accessLog
    .list(site.hosts[2])
    .filter((entry) => entry.path.startsWith('/articles/'))
    .map((entry) => entry.receivedAtMs);
  expect(starts).toHaveLength(3);
  for (let index = 1; index < starts.length; index += 1) {
    expect(starts[index] - starts[index - 1]).toBeGreaterThanOrEqual(400);
  }
  const view = await downloader.client.listDomainRuntime({});
  expect(
    view.entry_list.find((entry) => entry.entry_name === 'lease_loop')?.over_limit_count,
  ).toBeGreaterThan(0);
});

test('re-fetches conditionally: a task carrying the ETag it got last time is not_modified', async () => {
  const [first] = await leaseAndReport([leaseTaskFor(url(1, '/about'))]);
  expect(first.etag).toMatch(/^"/);
  const [second] = await leaseAndReport([
    leaseTaskFor(url(1, '/about'), { etag: first.etag, last_modified_at: first.last_modified_at }),
  ]);
  expect(second).toMatchObject({
    fetch_status: 'not_modified',
    object_id: null,
    statistics: null,
    health_signal: null,
    link_list: null,
    etag: first.etag,
  });
});

test('leaves out a task whose domain cannot be reached before the lease expires (re-queued at once)', async () => {
  await leaseAndReport([leaseTaskFor(url(1, '/articles/1'))]);
  const waitTooLong = leaseTaskFor(url(1, '/articles/2'), { min_interval_ms: 600_000 });
  const startedAt = Date.now();
  scheduler.queue.push(waitTooLong);
  await waitUntil(
    () => scheduler.reports.some((report) => report.result_list.length === 0),
    10_000,
  );
  expect(Date.now() - startedAt).toBeLessThan(5000);
  expect(site.accessLog.list(site.hosts[1]).map((entry) => entry.path)).not.toContain(
    '/articles/2',
  );
});

test('retries a report through scheduler failures until it is acknowledged, exactly once', async () => {
  scheduler.reportFailures.push(
    { status: 503, errorCode: 'service_unavailable' },
    { status: 503, errorCode: 'service_unavailable' },
  );
  const [result] = await leaseAndReport([leaseTaskFor(url(0, '/about'))]);
  expect(result.fetch_status).toBe('done');
  const leaseId = scheduler.reports.at(-1)?.lease_id as string;
  expect(scheduler.reportAttempts.filter((id) => id === leaseId)).toHaveLength(3);
  expect(scheduler.reportsOf(leaseId)).toHaveLength(1);
  expect(await metric('downloader_report_retry_total')).toBeGreaterThanOrEqual(2);
});

test('drops a report the scheduler refuses for good (4xx) as a dead letter instead of looping', async () => {
  scheduler.reportFailures.push({ status: 409, errorCode: 'lease_worker_mismatch' });
  const attemptsBefore = scheduler.reportAttempts.length;
  scheduler.queue.push(leaseTaskFor(url(0, '/articles/3')));
  await waitUntil(
    async () => (await metric('downloader_report_total{result="dead_letter"}')) === 1,
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(scheduler.reportAttempts.length - attemptsBefore).toBe(1);
  expect(await metric('downloader_report_outbox_depth')).toBe(0);
});

test('keeps a report the scheduler refuses for a fixable reason (401) and sends it once fixed', async () => {
  scheduler.reportFailures.push({ status: 401, errorCode: 'invalid_token' });
  const deadLettersBefore = await metric('downloader_report_total{result="dead_letter"}');
  const [result] = await leaseAndReport([leaseTaskFor(url(2, '/articles/3'))]);
  expect(result.fetch_status).toBe('done');
  const leaseId = scheduler.reports.at(-1)?.lease_id as string;
  expect(scheduler.reportAttempts.filter((id) => id === leaseId)).toHaveLength(2);
  expect(scheduler.reportsOf(leaseId)).toHaveLength(1);
  expect(await metric('downloader_report_total{result="dead_letter"}')).toBe(deadLettersBefore);
}, 30_000);

test('sends a report too large for the scheduler (413) again with fewer links, keeping its results', async () => {
  scheduler.reportFailures.push({ status: 413, errorCode: 'payload_too_large' });
  const [result] = await leaseAndReport([leaseTaskFor(url(2, '/about'))]);
  expect(result.fetch_status).toBe('done');
  expect(result.object_id).not.toBeNull();
  expect(result.link_list).toEqual([]);
});

test('reports a lease before it expires even while one of its tasks is still rendering', async () => {
  scheduler.leaseLifetimeSeconds = 8;
  try {
    const fast = leaseTaskFor(url(2, '/articles/1'));
    const slow = leaseTaskFor(url(0, '/slow?delay_ms=9000'), { timeout_ms: 20_000 });
    const reportsBefore = scheduler.reports.length;
    scheduler.queue.push(fast, slow);
    await waitUntil(() => scheduler.reports.length > reportsBefore, 10_000);
    const report = scheduler.reports[reportsBefore];
    // Before the lease expired (its expires_at, 8 s after it was handed out: the second cut off),
    // with the finished task and without the one still running.
    expect(scheduler.acknowledgedAtMs.get(report.lease_id)).toBeLessThan(
      scheduler.expiresAtMs.get(report.lease_id) as number,
    );
    expect(report.result_list.map((result) => result.url_hash)).toEqual([fast.url_hash]);
    const reportedAt = Date.now();
    // The slow page really was being rendered when the report left (the demo logs a request once
    // it has answered it, with the time it arrived).
    await waitUntil(
      () => site.accessLog.list(site.hosts[0]).some((entry) => entry.path.startsWith('/slow')),
      15_000,
    );
    const slowRequest = site.accessLog
      .list(site.hosts[0])
      .find((entry) => entry.path.startsWith('/slow'));
    expect(slowRequest?.receivedAtMs).toBeLessThan(reportedAt);
  } finally {
    scheduler.leaseLifetimeSeconds = undefined;
  }
}, 30_000);

test('a browser crash fails the tasks in flight with browser_crashed (reported, not dropped); the next renders', async () => {
  const crashing = leaseTaskFor(url(1, '/slow?delay_ms=5000&crash=1'));
  const reportsBefore = scheduler.reports.length;
  scheduler.queue.push(crashing);
  await waitUntil(
    () => downloader.core.controller.inFlightCount > 0 && scheduler.queue.length === 0,
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  // The downloader's own Chromium, started by this test's downloader, killed by its process id.
  process.kill(downloader.core.engine.browserProcessId() as number, 'SIGKILL');
  await waitUntil(() => scheduler.reports.length > reportsBefore, 10_000);
  expect(scheduler.reports.at(-1)?.result_list).toEqual([
    expect.objectContaining({
      url_hash: crashing.url_hash,
      fetch_status: 'failed',
      fail_reason: 'browser_crashed',
    }),
  ]);
  const [after] = await leaseAndReport([leaseTaskFor(url(1, '/articles/3'))]);
  expect(after.fetch_status).toBe('done');
});

test('graceful shutdown reports what finished, leaves waiting tasks out, and keeps an unsent report for the next start', async () => {
  // The scheduler is down for reports during the shutdown: the report must survive it.
  for (let index = 0; index < 1000; index += 1) {
    scheduler.reportFailures.push({ status: 503, errorCode: 'service_unavailable' });
  }
  const slow = leaseTaskFor(url(0, '/slow?delay_ms=1200'), { min_interval_ms: 0 });
  const waiting = leaseTaskFor(url(0, '/articles/4'), { min_interval_ms: 60_000 });
  // Both in one lease, as the test means: queued once a held lease call has room for both (a call
  // held since the crash above asked for the room it had then; it ends within --lease-wait-ms).
  await waitUntil(() => [...scheduler.heldCallTaskCounts].some(({ taskCount }) => taskCount >= 2));
  scheduler.queue.push(slow, waiting);
  await waitUntil(
    () => downloader.core.controller.inFlightCount > 0 && scheduler.queue.length === 0,
  );
  const leaseId = scheduler.leaseCalls.find((call) => call.url_hash_list.includes(slow.url_hash))
    ?.lease_id as string;
  const stoppedAt = Date.now();
  await downloader.stop();
  expect(Date.now() - stoppedAt).toBeLessThan(12_000);
  expect(scheduler.reportsOf(leaseId)).toHaveLength(0);
  expect(scheduler.reportAttempts).toContain(leaseId);

  // Restarted while the scheduler still fails: the start-up flush keeps trying, and a shutdown
  // during it is prompt and keeps the row.
  const attemptsBefore = scheduler.reportAttempts.filter((id) => id === leaseId).length;
  downloader = await startDownloader(downloader.dataDirectory);
  await waitUntil(
    () => scheduler.reportAttempts.filter((id) => id === leaseId).length > attemptsBefore,
  );
  const flushStoppedAt = Date.now();
  await downloader.stop();
  expect(Date.now() - flushStoppedAt).toBeLessThan(5000);
  expect(scheduler.reportsOf(leaseId)).toHaveLength(0);

  scheduler.reportFailures.length = 0;
  downloader = await startDownloader(downloader.dataDirectory);
  await waitUntil(() => scheduler.reportsOf(leaseId).length > 0);
  const [report] = scheduler.reportsOf(leaseId) as [ReportRequest];
  expect(report.result_list.map((result) => result.url_hash)).toEqual([slow.url_hash]);
  expect(report.result_list[0].fetch_status).toBe('done');
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(scheduler.reportsOf(leaseId)).toHaveLength(1);
  // The restarted process serves the object rendered before the shutdown.
  expect(
    (
      await downloader.client.getWebPageObject({
        object_id: report.result_list[0].object_id as string,
      })
    ).url,
  ).toBe(slow.url);
  expect(TEST_DOWNLOADER_TOKEN).toBeDefined();
});
