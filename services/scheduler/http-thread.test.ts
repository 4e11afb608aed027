import { urlHash } from '../common/url';
import { doneResult, link, ruleFor } from './testing/contract-fixtures';
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

  it('answers a contract operation with the same JSON and headers', async () => {
    await scheduler.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['news.example'], 1) });
    const answer = await fetch(`${scheduler.url}/v1/lease?worker_id=w1&task_count=5`, {
      headers: { authorization: `Bearer ${TEST_SCHEDULER_TOKEN}`, 'x-request-id': 'r-same' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('x-request-id')).toBe('r-same');
    const text = await answer.text();
    expect(answer.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    const lease = JSON.parse(text) as { task_list: Array<{ url: string }> };
    expect(lease.task_list.map((task) => task.url)).toEqual(['https://news.example/page-0']);
  });

  it('answers a contract error with its status and error body', async () => {
    const answer = await fetch(`${scheduler.url}/v1/report`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_SCHEDULER_TOKEN}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ lease_id: 'l-0123456789abcdef', worker_id: 'w1', result_list: [] }),
    });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error_code: 'lease_not_found' });
  });

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

  it("admits a report's links alike, prepared on whichever thread, and redoes no preparation", async () => {
    await scheduler.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
    const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 1 });
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [
        doneResult(lease.task_list[0], {
          link_list: [
            link('https://news.example/page-1'),
            link('https://news.example/fresh#part'),
            link('https://news.example/paid', { rel: 'nofollow' }),
          ],
        }),
      ],
    });
    const text = await (await fetch(`${scheduler.url}/metrics`)).text();
    expect(text).toMatch(/^scheduler_link_total\{outcome="duplicate_url"\} 1$/m);
    expect(text).toMatch(/^scheduler_link_total\{outcome="queued"\} 1$/m);
    expect(text).toMatch(/^scheduler_link_total\{outcome="nofollow"\} 1$/m);
    expect(text).toMatch(/^scheduler_link_preparation_redone_total 0$/m);
    const fresh = await scheduler.client.getUrlTask({
      url_hash: urlHash('https://news.example/fresh'),
    });
    expect(fresh.url).toBe('https://news.example/fresh');
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
