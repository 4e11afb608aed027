import { setTimeout as sleep } from 'node:timers/promises';
import { doneResult, failedResult, healthySignal, ruleFor } from './testing/contract-fixtures';
import {
  startFakeDownloader,
  FAKE_DOWNLOADER_TOKEN,
  type FakeDownloader,
} from './testing/fake-downloader';
import { seedUrls } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';
import type { DomainFrontierRow, LeaseResponse, ReportResult } from './frontier/wire-types';

/** Polls `read` until `isDone` (bounded: the prober ticks every 50 ms in tests). */
async function waitFor<T>(
  read: () => Promise<T>,
  isDone: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await sleep(25);
  }
}

describe('domain health', () => {
  let clock: ManualClock;
  let downloader: FakeDownloader;
  let scheduler: TestScheduler;

  beforeEach(async () => {
    clock = new ManualClock();
    downloader = await startFakeDownloader();
    scheduler = await startTestScheduler({
      clock,
      flags: [
        '--downloader-url',
        downloader.url,
        '--domain-in-flight-cap',
        '100',
        '--health-window-result-count',
        '8',
        '--health-min-result-count',
        '4',
        '--health-pause-seconds',
        '60',
        '--probe-retry-seconds',
        '5',
      ],
      environment: { DOWNLOADER_TOKEN: FAKE_DOWNLOADER_TOKEN },
    });
    await scheduler.client.submitRules({
      rule_list: [ruleFor('news.example', { min_interval_ms: 250 })],
    });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['news.example'], 20) });
  });
  afterEach(async () => {
    await scheduler.stop();
    await downloader.close();
  });

  async function domainRow(): Promise<DomainFrontierRow | undefined> {
    const summary = await scheduler.client.getFrontierSummary({});
    return summary.domain_list.find((row) => row.domain === 'news.example');
  }

  async function leaseAndReport(
    resultOf: (task: LeaseResponse['task_list'][number]) => ReportResult,
    advanceMs = 250,
  ) {
    clock.advance(advanceMs);
    const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 50 });
    if (lease.task_list.length === 0) return lease; // paused: nothing leased, nothing to report
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: lease.task_list.map(resultOf),
    });
    return lease;
  }

  it('pauses on XHR error ratios, probes at growing intervals, ignores unreached probes, and resumes', async () => {
    const failing = healthySignal({ xhr_total_count: 10, xhr_error_count: 7 });
    // The first lease at once: w1 is new to the domain, so its robots.txt takes a slot as well and
    // its second lease comes two intervals later (then one each).
    for (const advanceMs of [0, 500, 250, 250]) {
      await leaseAndReport((task) => doneResult(task, { health_signal: failing }), advanceMs);
    }
    const paused = await domainRow();
    expect(paused).toMatchObject({
      domain_health_state: 'paused',
      paused_until_at: '2026-08-15T07:01:01Z',
    });
    clock.advance(250);
    expect((await scheduler.client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(0);
    expect(downloader.probes).toHaveLength(0);

    // Held back by our own limit: not counted, no backoff — tried again after probe-retry-seconds.
    downloader.answer = () => ({
      has_reached_origin: false,
      http_status: null,
      health_signal: null,
    });
    clock.advance(60_000);
    await waitFor(
      async () => downloader.probes.length,
      (count) => count === 1,
    );
    expect(downloader.probes[0]).toEqual({
      url: 'https://news.example/',
      timeout_ms: 10000,
      should_render: false,
      min_interval_ms: 250,
    });
    const retry = await waitFor(domainRow, (row) => row?.domain_health_state === 'paused');
    // Probed at 07:01:01.25; retried 5 s later (rounded up to the second).
    expect(retry?.paused_until_at).toBe('2026-08-15T07:01:07Z');

    // Reached, still failing: the next probe waits twice as long.
    downloader.answer = () => ({ has_reached_origin: true, http_status: 503, health_signal: null });
    clock.advance(6_000);
    await waitFor(
      async () => downloader.probes.length,
      (count) => count === 2,
    );
    const backedOff = await waitFor(
      domainRow,
      (row) => row?.paused_until_at !== '2026-08-15T07:01:07Z',
    );
    expect(backedOff?.paused_until_at).toBe('2026-08-15T07:03:08Z'); // 60 s, doubled

    downloader.answer = () => ({
      has_reached_origin: true,
      http_status: 200,
      health_signal: healthySignal(),
    });
    clock.advance(119_000);
    await sleep(200); // several prober ticks: not due yet
    expect(downloader.probes).toHaveLength(2);
    clock.advance(2_000);
    await waitFor(
      async () => downloader.probes.length,
      (count) => count === 3,
    );
    const resumed = await waitFor(domainRow, (row) => row?.domain_health_state === 'healthy');
    expect(resumed).toMatchObject({ domain_health_state: 'healthy', paused_until_at: null });
    expect(
      (await scheduler.client.leaseTasks({ worker_id: 'w1' })).task_list.length,
    ).toBeGreaterThan(0);
  });

  it('pauses on origin failures (5xx, 429) but not on healthy pages or our own timeouts', async () => {
    for (let page = 0; page < 6; page += 1) {
      await leaseAndReport((task) =>
        page % 2 === 0 ? doneResult(task) : failedResult(task, 'navigation_timeout'),
      );
    }
    expect((await domainRow())?.domain_health_state).toBe('healthy');
    for (let page = 0; page < 4; page += 1) {
      await leaseAndReport((task) =>
        failedResult(task, page % 2 === 0 ? 'http_server_error' : 'origin_throttled'),
      );
    }
    expect((await domainRow())?.domain_health_state).toBe('paused');
  });

  it('ignores the health signals of a stale report', async () => {
    const lease = await scheduler.client.leaseTasks({
      worker_id: 'w1',
      task_count: 50,
      lease_ttl_seconds: 10,
    });
    clock.advance(11_000);
    const answer = await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: lease.task_list.map((task) =>
        doneResult(task, {
          health_signal: healthySignal({ xhr_total_count: 10, xhr_denied_count: 10 }),
        }),
      ),
    });
    expect(answer.is_stale_lease).toBe(true);
    expect((await domainRow())?.domain_health_state).toBe('healthy');
  });
});
