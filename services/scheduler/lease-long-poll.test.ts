import { performance } from 'node:perf_hooks';
import { SchedulerClient } from '../../generated/scheduler';
import { ruleFor } from './testing/contract-fixtures';
import { reportAllDone, seedUrls } from './testing/lease-helpers';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from './testing/scheduler-test-harness';

/*
 * GET /v1/lease?wait_ms (issue 13 item 5, the scheduler's side), against the real scheduler on the
 * real clock: a parked call answers as soon as work is due, or empty when its wait ends.
 */
describe('lease long polling (wait_ms)', () => {
  let scheduler: TestScheduler;
  let client: SchedulerClient;

  beforeEach(async () => {
    scheduler = await startTestScheduler({
      // The upkeep tick is slow here: wake-ups must come from the parked calls' own timers.
      flags: ['--domain-in-flight-cap', '10', '--maintenance-interval-ms', '5000'],
    });
    // Longer than any wait below: the call's answer, not the client, ends it.
    client = new SchedulerClient({
      baseUrl: scheduler.url,
      token: TEST_SCHEDULER_TOKEN,
      maximumAttemptCount: 1,
      timeoutMs: 20_000,
    });
  });
  afterEach(() => scheduler.stop());

  async function timed<T>(work: Promise<T>): Promise<{ value: T; elapsedMs: number }> {
    const startedAt = performance.now();
    const value = await work;
    return { value, elapsedMs: performance.now() - startedAt };
  }

  it('answers an empty task_list after wait_ms when nothing becomes due', async () => {
    const { value, elapsedMs } = await timed(client.leaseTasks({ worker_id: 'w1', wait_ms: 600 }));
    expect(value.task_list).toEqual([]);
    expect(elapsedMs).toBeGreaterThanOrEqual(550);
    expect(elapsedMs).toBeLessThan(3000);
  });

  it('answers at once with wait_ms 0 (the default)', async () => {
    const { value, elapsedMs } = await timed(client.leaseTasks({ worker_id: 'w1' }));
    expect(value.task_list).toEqual([]);
    expect(elapsedMs).toBeLessThan(500);
  });

  it('answers a parked call within about the interval when its domain becomes due', async () => {
    await client.submitRules({ rule_list: [ruleFor('news.example', { min_interval_ms: 800 })] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });
    const first = await client.leaseTasks({ worker_id: 'w1' });
    expect(first.task_list).toHaveLength(1);
    const { value, elapsedMs } = await timed(
      client.leaseTasks({ worker_id: 'w2', wait_ms: 10_000 }),
    );
    expect(value.task_list).toHaveLength(1);
    expect(elapsedMs).toBeGreaterThanOrEqual(500);
    expect(elapsedMs).toBeLessThan(2500); // ~800 ms, never the full 10 s wait
  });

  it('answers a parked call when new URLs are admitted', async () => {
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    const parked = timed(client.leaseTasks({ worker_id: 'w1', wait_ms: 10_000 }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 1) });
    const { value, elapsedMs } = await parked;
    expect(value.task_list).toHaveLength(1);
    expect(elapsedMs).toBeLessThan(3000);
  });

  it('never gives two parked calls the same URL', async () => {
    await client.submitRules({
      rule_list: [ruleFor('a.example', { min_interval_ms: 300 }), ruleFor('b.example')],
    });
    const parked = Array.from({ length: 4 }, (_, index) =>
      client.leaseTasks({ worker_id: `w${index}`, wait_ms: 2500, task_count: 2 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await client.submitSeeds({ seed_list: seedUrls(['a.example', 'b.example'], 3) });
    const leases = await Promise.all(parked);
    const leased = leases.flatMap((lease) => lease.task_list.map((task) => task.url_hash));
    expect(leased.length).toBeGreaterThan(0);
    expect(new Set(leased).size).toBe(leased.length);
    for (const lease of leases) {
      if (lease.task_list.length > 0) await reportAllDone(client, lease);
    }
  });

  it('releases parked calls at once when the scheduler stops', async () => {
    const parked = timed(client.leaseTasks({ worker_id: 'w1', wait_ms: 20_000 }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = scheduler.stop({ keepData: true, isLettingRequestsFinish: true });
    const { value, elapsedMs } = await parked;
    await stopped;
    expect(value.task_list).toEqual([]);
    expect(elapsedMs).toBeLessThan(3000);
    scheduler = await startTestScheduler({ dataDirectory: scheduler.dataDirectory });
  });

  it('refuses wait_ms outside 0–30000 with 400', async () => {
    for (const waitMs of ['-1', '30001', 'soon']) {
      const response = await fetch(`${scheduler.url}/v1/lease?worker_id=w1&wait_ms=${waitMs}`, {
        headers: { Authorization: `Bearer ${TEST_SCHEDULER_TOKEN}` },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error_code: 'invalid_request' });
    }
  });
});
