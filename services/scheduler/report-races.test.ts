import { setTimeout as sleep } from 'node:timers/promises';
import { ruleFor } from './testing/contract-fixtures';
import { reportAllDone, reportOfAllDone, seedUrls, urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from './testing/scheduler-test-harness';
import { reportOnce } from './testing/scheduler-process-harness';
import { WriteInterceptor } from './testing/write-interceptor';

/*
 * The two races the scheduler's notes left open (issue 12, item 2), over HTTP against the real
 * scheduler on LMDB, with its storage behind a WriteInterceptor that can hold a commit in flight or
 * "kill" the process between two writes.
 */
describe('report races', () => {
  let clock: ManualClock;
  let storage: WriteInterceptor;
  let scheduler: TestScheduler | undefined;

  beforeEach(() => {
    clock = new ManualClock();
    storage = new WriteInterceptor();
  });
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
  });

  async function startWithLease(dataDirectory?: string) {
    scheduler = await startTestScheduler({
      clock,
      dataDirectory,
      wrapBackend: (backend) => storage.wrap(backend),
      flags: ['--domain-in-flight-cap', '10'],
    });
    await scheduler.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });
    return scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 10, lease_ttl_seconds: 30 });
  }

  it('answers a duplicate report that races its lease expiry with the applied answer, not stale', async () => {
    const lease = await startWithLease();
    const { client } = scheduler as TestScheduler;
    const release = storage.hold();
    // The first copy is decided and its writes are on their way (held: the commit is "slow").
    const first = reportAllDone(client, lease);
    await storage.waitForWrite(/scheduler:url_task:/);
    // The lease expires meanwhile; a retried copy arrives and the reclaimer runs.
    clock.advance(31_000);
    const copy = reportAllDone(client, lease);
    await sleep(300);
    release();
    const applied = { lease_id: lease.lease_id, is_stale_lease: false, accepted_count: 3 };
    expect(await first).toMatchObject(applied);
    expect(await copy).toMatchObject(applied);
    expect(await urlCounts(client)).toMatchObject({ done: 3, leased: 0, queued: 0 });
    const summary = await client.getFrontierSummary({});
    expect(summary.expired_lease_count).toBe(0);
    expect(summary.live_lease_count).toBe(0);
  });

  it('does not count a lease live after a restart once its answer was stored', async () => {
    const lease = await startWithLease();
    const first = scheduler as TestScheduler;
    // The process "dies" right after the write that stores the report's answer. (Sent by hand:
    // the generated client retries a report until it succeeds, as the contract asks.)
    storage.dieAfter(/scheduler:lease_result:/);
    expect(await reportOnce(first.url, TEST_SCHEDULER_TOKEN, reportOfAllDone(lease))).toBe(503);
    expect(storage.isDead).toBe(true);
    await first.stop({ keepData: true });

    scheduler = await startTestScheduler({ clock, dataDirectory: first.dataDirectory });
    const { client } = scheduler;
    const summary = await client.getFrontierSummary({});
    expect(summary.live_lease_count).toBe(0);
    expect(await reportAllDone(client, lease)).toMatchObject({
      is_stale_lease: false,
      accepted_count: 3,
    });
    expect(await urlCounts(client)).toMatchObject({ done: 3, leased: 0 });
  });
});
