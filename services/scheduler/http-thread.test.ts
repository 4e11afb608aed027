import { ruleFor } from './testing/contract-fixtures';
import { seedUrls } from './testing/lease-helpers';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from './testing/scheduler-test-harness';

/*
 * --http-thread: HTTP served on a thread of its own (the default) or on the event loop. The other
 * suites run the default; these hold what differs between the two — /healthz and /metrics, which
 * the thread answers from the main thread's state, and a stop with a request in flight — equal.
 */
describe.each(['on', 'off'])('the scheduler with --http-thread %s', (mode) => {
  let scheduler: TestScheduler;

  beforeEach(async () => {
    scheduler = await startTestScheduler({
      flags: ['--http-thread', mode, '--domain-in-flight-cap', '10'],
    });
  });
  afterEach(() => scheduler.stop());

  it('answers /healthz ready', async () => {
    const answer = await fetch(`${scheduler.url}/healthz`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ service_name: 'scheduler', is_ready: true });
  });

  it("merges the frontier's metrics and the contract's request counts in one /metrics", async () => {
    await scheduler.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
    expect((await scheduler.client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(2);
    const text = await (await fetch(`${scheduler.url}/metrics`)).text();
    // Counted where the request was answered…
    expect(text).toMatch(
      /^scheduler_contract_request_total\{operation="leaseTasks",status="200"\} 1$/m,
    );
    // …and kept by the frontier and the process, on the main thread: each family once.
    expect(text).toMatch(/^scheduler_process_cpu_user_seconds_total \d/m);
    expect(text.match(/^# TYPE scheduler_contract_request_total /gm)).toHaveLength(1);
    expect(text.match(/^# TYPE scheduler_nodejs_eventloop_lag_seconds /gm)).toHaveLength(1);
  });

  it('answers a lease parked in a long poll when stopped meanwhile, and refuses nothing it took', async () => {
    const parked = fetch(`${scheduler.url}/v1/lease?worker_id=w1&wait_ms=1500`, {
      headers: { authorization: `Bearer ${TEST_SCHEDULER_TOKEN}` },
    });
    // The call reaches the frontier before the stop begins.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = scheduler.stop({ isLettingRequestsFinish: true, keepData: true });
    const answer = await parked;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ task_list: [] });
    await stopped;
    scheduler = { ...scheduler, stop: async () => undefined };
  });
});
