import { ContractHttpError } from '../common/contract-runtime/client-errors';
import { urlHash } from '../common/url';
import { doneResult, link, ruleFor } from './testing/contract-fixtures';
import { inFlightByDomain, reportAllDone, seedUrls, urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import {
  startTestScheduler,
  TEST_SCHEDULER_TOKEN,
  type TestScheduler,
} from './testing/scheduler-test-harness';

/*
 * The "how it is checked", over HTTP with the generated client, against the real scheduler
 * on LMDB. The clock is a manual one: a lease expires when the test moves time, not after sleeping.
 */
describe('leases over HTTP', () => {
  let clock: ManualClock;
  let scheduler: TestScheduler;

  beforeEach(async () => {
    clock = new ManualClock();
    scheduler = await startTestScheduler({ clock, flags: ['--domain-in-flight-cap', '10'] });
  });
  afterEach(() => scheduler.stop());

  it('re-leases expired URLs to another worker; the late report is stale, its links unqueued; the second report applies once', async () => {
    const { client } = scheduler;
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });

    const first = await client.leaseTasks({
      worker_id: 'w1',
      task_count: 50,
      lease_ttl_seconds: 10,
    });
    expect(first.lease_id).toMatch(/^l-[0-9a-f]{16}$/);
    expect(first.task_list).toHaveLength(3);

    clock.advance(11_000);
    const second = await client.leaseTasks({
      worker_id: 'w2',
      task_count: 50,
      lease_ttl_seconds: 60,
    });
    expect(second.task_list.map((task) => task.url_hash).sort()).toEqual(
      first.task_list.map((task) => task.url_hash).sort(),
    );

    const lateLink = 'https://news.example/only-in-the-late-report';
    const late = await client.reportLease({
      lease_id: first.lease_id,
      worker_id: 'w1',
      result_list: first.task_list.map((task) => doneResult(task, { link_list: [link(lateLink)] })),
    });
    expect(late).toEqual({
      lease_id: first.lease_id,
      is_stale_lease: true,
      accepted_count: 0,
      requeued_count: 0,
    });
    // Not in the frontier: the same URL as a seed is accepted as new, not a duplicate.
    expect((await client.submitSeeds({ seed_list: [{ url: lateLink }] })).accepted_count).toBe(1);
    expect((await inFlightByDomain(client)).get('news.example')).toBe(3); // w1 decremented nothing

    const body = {
      lease_id: second.lease_id,
      worker_id: 'w2',
      result_list: second.task_list.map((task) => doneResult(task)),
    };
    const answers = [
      await client.reportLease(body),
      ...(await Promise.all([client.reportLease(body), client.reportLease(body)])),
      await client.reportLease(body),
    ];
    for (const answer of answers) {
      expect(answer).toEqual({
        lease_id: second.lease_id,
        is_stale_lease: false,
        accepted_count: 3,
        requeued_count: 0,
      });
    }
    const counts = await urlCounts(client);
    expect(counts.done).toBe(3);
    expect(counts.leased).toBe(0);
    expect((await inFlightByDomain(client)).get('news.example') ?? 0).toBe(0);
    const summary = await client.getFrontierSummary({});
    expect(summary.expired_lease_count).toBe(1);
    expect(summary.live_lease_count).toBe(0);
    expect(
      summary.report_status_list.find((row) => row.fetch_status === 'done')?.result_count,
    ).toBe(3);
  });

  it('never hands one URL to two live leases', async () => {
    const { client } = scheduler;
    const domains = ['a.example', 'b.example', 'c.example'];
    await client.submitRules({ rule_list: domains.map((domain) => ruleFor(domain)) });
    await client.submitSeeds({ seed_list: seedUrls(domains, 20) });
    const seen = new Set<string>();
    for (let round = 0; round < 10; round += 1) {
      const lease = await client.leaseTasks({ worker_id: `w${round}`, task_count: 7 });
      for (const task of lease.task_list) {
        expect(seen.has(task.url_hash)).toBe(false);
        seen.add(task.url_hash);
      }
    }
    expect(seen.size).toBe(30); // the in-flight cap (10) bounds each domain
  });

  it('answers 400 to bad query parameters and changes nothing', async () => {
    const { client } = scheduler;
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
    const before = await client.getFrontierSummary({});
    const badQueries = [
      'worker_id=w1&task_count=0',
      'worker_id=w1&lease_ttl_seconds=999999',
      'worker_id=w1&lease_ttl_seconds=9',
      'worker_id=w1&task_count=501',
      'worker_id=w1&task_count=two',
      'task_count=5',
      'worker_id=w%20one',
    ];
    for (const query of badQueries) {
      const response = await fetch(`${scheduler.url}/v1/lease?${query}`, {
        headers: { Authorization: `Bearer ${TEST_SCHEDULER_TOKEN}` },
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error_code: string; message: string };
      expect(body.error_code).toBe('invalid_request');
      expect(body.message).toMatch(/query/);
    }
    const after = await client.getFrontierSummary({});
    expect(after.url_state_list).toEqual(before.url_state_list);
    expect(after.live_lease_count).toBe(0);
    expect((await client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(2);
  });

  it('hands out at most 6 tasks per domain in 5 s of tight leasing at min_interval_ms 1000', async () => {
    const { client } = scheduler;
    const domains = ['one.example', 'two.example', 'three.example'];
    await client.submitRules({
      rule_list: domains.map((domain) => ruleFor(domain, { min_interval_ms: 1000 })),
    });
    await client.submitSeeds({ seed_list: seedUrls(domains, 30) });
    const perDomain = new Map<string, number>();
    // 5 s of time in 20 ms steps, every lease reported at once so the in-flight cap never binds.
    for (let elapsedMs = 0; elapsedMs <= 5000; elapsedMs += 20) {
      const lease = await client.leaseTasks({ worker_id: 'tight-loop', task_count: 50 });
      for (const task of lease.task_list) {
        expect(task.min_interval_ms).toBe(1000);
        perDomain.set(task.domain, (perDomain.get(task.domain) ?? 0) + 1);
      }
      if (lease.task_list.length > 0) await reportAllDone(client, lease);
      clock.advance(20);
    }
    for (const domain of domains) {
      expect(perDomain.get(domain)).toBeLessThanOrEqual(6);
      expect(perDomain.get(domain)).toBeGreaterThanOrEqual(5);
    }
  });

  it('serves by priority_rank first and takes turns across domains of one rank', async () => {
    const { client } = scheduler;
    await client.submitRules({
      rule_list: [
        ruleFor('urgent.example', { priority_rank: 0 }),
        ruleFor('busy.example', { priority_rank: 5 }),
        ...['s1', 's2', 's3', 's4'].map((name) => ruleFor(`${name}.example`, { priority_rank: 5 })),
      ],
    });
    await client.submitSeeds({
      seed_list: [
        ...seedUrls(['busy.example'], 40),
        ...seedUrls(['s1.example', 's2.example', 's3.example', 's4.example'], 1),
        ...seedUrls(['urgent.example'], 1),
      ],
    });
    const lease = await client.leaseTasks({ worker_id: 'w1', task_count: 6 });
    expect(lease.task_list[0].domain).toBe('urgent.example');
    const domains = lease.task_list.map((task) => task.domain);
    // One busy domain cannot starve the others: every small domain is served in the same lease.
    expect(new Set(domains)).toEqual(
      new Set([
        'urgent.example',
        'busy.example',
        's1.example',
        's2.example',
        's3.example',
        's4.example',
      ]),
    );
  });

  it('queues partial domains behind csr ones at priority_rank + 1000', async () => {
    const { client } = scheduler;
    await client.submitRules({
      rule_list: [
        ruleFor('partial.example', { verdict: 'partial', priority_rank: 0 }),
        ruleFor('csr.example', { priority_rank: 500 }),
      ],
    });
    await client.submitSeeds({ seed_list: seedUrls(['partial.example', 'csr.example'], 1) });
    const lease = await client.leaseTasks({ worker_id: 'w1', task_count: 2 });
    expect(lease.task_list.map((task) => [task.domain, task.priority_rank])).toEqual([
      ['csr.example', 500],
      ['partial.example', 1000],
    ]);
  });

  it('caps leased URLs per domain until a report frees a slot', async () => {
    await scheduler.stop();
    scheduler = await startTestScheduler({ clock, flags: ['--domain-in-flight-cap', '2'] });
    const { client } = scheduler;
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 5) });
    const first = await client.leaseTasks({ worker_id: 'w1', task_count: 10 });
    expect(first.task_list).toHaveLength(2);
    expect((await client.leaseTasks({ worker_id: 'w2', task_count: 10 })).task_list).toHaveLength(
      0,
    );
    await reportAllDone(client, first);
    expect((await client.leaseTasks({ worker_id: 'w3', task_count: 10 })).task_list).toHaveLength(
      2,
    );
  });

  it("carries the rule's fields and the last ETag / Last-Modified; re-crawls after the revisit interval", async () => {
    const { client } = scheduler;
    await client.submitRules({
      rule_list: [
        ruleFor('news.example', {
          min_interval_ms: 1500,
          wait_selector: '#story',
          revisit_interval_seconds: 600,
        }),
      ],
    });
    await client.submitSeeds({ seed_list: [{ url: 'https://news.example/story' }] });
    const first = await client.leaseTasks({ worker_id: 'w1' });
    expect(first.task_list[0]).toMatchObject({
      min_interval_ms: 1500,
      wait_selector: '#story',
      timeout_ms: 30000,
      etag: null,
      last_modified_at: null,
    });
    await reportAllDone(client, first);
    clock.advance(599_000);
    expect((await client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(0);
    clock.advance(2_000);
    const revisit = await client.leaseTasks({ worker_id: 'w1' });
    expect(revisit.task_list).toHaveLength(1);
    expect(revisit.task_list[0]).toMatchObject({
      etag: '"v1"',
      last_modified_at: '2026-08-15T06:30:00Z',
    });
  });

  it('parks a long run of URLs a newer robots.txt disallows without stalling the lease', async () => {
    const { client } = scheduler;
    await client.submitRules({ rule_list: [ruleFor('walled.example')] });
    await client.submitSeeds({
      seed_list: [
        ...Array.from({ length: 300 }, (_, index) => ({
          url: `https://walled.example/private/${index}`,
          priority_rank: 0,
        })),
        { url: 'https://walled.example/public', priority_rank: 20 },
      ],
    });
    // The new rule disallows what is already queued: those URLs are found at lease time.
    await client.submitRules({
      rule_list: [
        ruleFor('walled.example', {
          robots_txt: 'User-agent: *\nDisallow: /private/\n',
          verified_at: '2026-08-15T06:30:00Z',
        }),
      ],
    });
    const startedAt = Date.now();
    const lease = await client.leaseTasks({ worker_id: 'w1', task_count: 5 });
    expect(Date.now() - startedAt).toBeLessThan(5000);
    expect(lease.task_list.map((task) => task.url)).toEqual(['https://walled.example/public']);
    expect(await urlCounts(client)).toMatchObject({ failed: 300, leased: 1 });
    expect(
      await client.getUrlTask({ url_hash: urlHash('https://walled.example/private/7') }),
    ).toMatchObject({ url_state: 'failed', fail_reason: null, park_reason: 'robots_disallowed' });
  });

  it('parks a URL whose leases keep expiring, and the operator view says why', async () => {
    // No fetch ever answered for it, so fail_reason is null: park_reason is the only explanation.
    const { client } = scheduler;
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 1) });
    const [url] = seedUrls(['news.example'], 1).map((seed) => seed.url);
    const expiryLimit = 3; // the default --max-lease-expiry-count
    for (let expiry = 0; expiry < expiryLimit; expiry += 1) {
      const lease = await client.leaseTasks({ worker_id: 'w1', lease_ttl_seconds: 10 });
      expect(lease.task_list.map((task) => task.url)).toEqual([url]);
      expect(await client.getUrlTask({ url_hash: urlHash(url) })).toMatchObject({
        url_state: 'leased',
        park_reason: null,
      });
      clock.advance(11_000);
    }
    expect((await client.leaseTasks({ worker_id: 'w1' })).task_list).toEqual([]);
    expect(await client.getUrlTask({ url_hash: urlHash(url) })).toMatchObject({
      url_state: 'failed',
      fail_reason: null,
      park_reason: 'lease_expiries_exhausted',
    });
  });

  it('shows no expired lease as live after a restart: it is reclaimed before the first answer', async () => {
    // Issue 11 defect 4: a restarted scheduler counted an already expired lease live until a
    // lease call or an upkeep tick reclaimed it.
    const { client } = scheduler;
    await client.submitRules({ rule_list: [ruleFor('news.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });
    const lease = await client.leaseTasks({ worker_id: 'w1', lease_ttl_seconds: 10 });
    expect(lease.task_list).toHaveLength(3);
    await scheduler.stop({ keepData: true });
    clock.advance(11_000);
    scheduler = await startTestScheduler({
      clock,
      dataDirectory: scheduler.dataDirectory,
      flags: ['--maintenance-interval-ms', '60000'], // no upkeep tick in this test's lifetime
    });
    const summary = await scheduler.client.getFrontierSummary({});
    expect(summary.live_lease_count).toBe(0);
    expect(summary.expired_lease_count).toBe(1);
    expect(await urlCounts(scheduler.client)).toMatchObject({ leased: 0, queued: 3 });
    const late = await reportAllDone(scheduler.client, lease);
    expect(late.is_stale_lease).toBe(true);
  });

  it('answers an empty lease when nothing is due, and needs no report for it', async () => {
    const lease = await scheduler.client.leaseTasks({ worker_id: 'idle' });
    expect(lease.task_list).toEqual([]);
    await expect(
      scheduler.client.reportLease({
        lease_id: lease.lease_id,
        worker_id: 'idle',
        result_list: [],
      }),
    ).rejects.toMatchObject({
      status: 404,
      errorCode: 'lease_not_found',
    } satisfies Partial<ContractHttpError>);
  });
});
