import { urlHash } from '../common/url';
import { ruleFor } from './testing/contract-fixtures';
import { seedUrls } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';

describe('the operator view', () => {
  let scheduler: TestScheduler;

  beforeAll(async () => {
    scheduler = await startTestScheduler({ clock: new ManualClock() });
    await scheduler.client.submitRules({
      rule_list: [ruleFor('news.example'), ruleFor('shop.example', { verdict: 'partial' })],
    });
    await scheduler.client.submitSeeds({
      seed_list: [
        ...seedUrls(['news.example'], 3),
        ...seedUrls(['shop.example'], 2),
        { url: 'https://new.example/' },
      ],
    });
    await scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 1 });
  });
  afterAll(() => scheduler.stop());

  it('summarizes queue depth, leases, reports and domains as JSON', async () => {
    const summary = await scheduler.client.getFrontierSummary({ limit: 10 });
    expect(summary.window_seconds).toBe(86400);
    expect(
      Object.fromEntries(summary.url_state_list.map((row) => [row.url_state, row.url_count])),
    ).toEqual({
      queued: 4,
      leased: 1,
      done: 0,
      failed: 0,
      waiting_for_rule: 1,
      dropped: 0,
    });
    expect(summary.live_lease_count).toBe(1);
    expect(summary.domain_list).toEqual([
      {
        domain: 'news.example',
        verdict: 'csr',
        due_count: 2,
        in_flight_count: 1,
        domain_health_state: 'healthy',
        paused_until_at: null,
      },
      {
        domain: 'shop.example',
        verdict: 'partial',
        due_count: 2,
        in_flight_count: 0,
        domain_health_state: 'healthy',
        paused_until_at: null,
      },
    ]);
    expect((await scheduler.client.getFrontierSummary({ limit: 1 })).domain_list).toHaveLength(1);
    const anonymous = await fetch(`${scheduler.url}/v1/operator/frontier-summary`);
    expect(anonymous.status).toBe(401);
  });

  it('tells where one URL stands, and 404 url_task_not_found for a URL it never saw', async () => {
    const view = await scheduler.client.getUrlTask({ url_hash: urlHash('https://new.example/') });
    expect(view).toMatchObject({
      url: 'https://new.example/',
      domain: 'new.example',
      url_state: 'waiting_for_rule',
      priority_rank: null,
      lease_id: null,
      object_id: null,
      fetched_at: null,
    });
    await expect(
      scheduler.client.getUrlTask({ url_hash: urlHash('https://never.example/') }),
    ).rejects.toMatchObject({ status: 404, errorCode: 'url_task_not_found' });
  });
});
