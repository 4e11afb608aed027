import type { ContractHttpError } from '../common/contract-runtime/client-errors';
import {
  doneResult,
  failedResult,
  healthySignal,
  notModifiedResult,
  ruleFor,
  type ReportResultFields,
} from './testing/contract-fixtures';
import type { LeaseResponse, ReportResult } from './frontier/wire-types';
import { inFlightByDomain, reportAllDone, seedUrls, urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';

function expectContractError(status: number, errorCode: string): Partial<ContractHttpError> {
  return { status, errorCode };
}

describe('POST /v1/report', () => {
  let clock: ManualClock;
  let scheduler: TestScheduler;

  async function leaseOf(count: number, flags: { domain?: string } = {}): Promise<LeaseResponse> {
    const domain = flags.domain ?? 'news.example';
    await scheduler.client.submitRules({ rule_list: [ruleFor(domain)] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls([domain], count) });
    return scheduler.client.leaseTasks({ worker_id: 'w1', task_count: 50, lease_ttl_seconds: 30 });
  }

  beforeEach(async () => {
    clock = new ManualClock();
    scheduler = await startTestScheduler({
      clock,
      flags: [
        '--domain-in-flight-cap',
        '50',
        '--max-attempt-count',
        '2',
        '--retry-backoff-seconds',
        '60',
      ],
    });
  });
  afterEach(() => scheduler.stop());

  it('refuses a failed result that carries an object_id with a clear 400 and applies nothing', async () => {
    const lease = await leaseOf(2);
    const [first, second] = lease.task_list;
    const request = scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [
        doneResult(first),
        {
          ...failedResult(second, 'navigation_timeout'),
          object_id: 'abcdefabcdefabcdefabcdefabcdefab',
        } as ReportResultFields as ReportResult,
      ],
    });
    await expect(request).rejects.toMatchObject(expectContractError(400, 'fetch_status_mismatch'));
    await request.catch((error: ContractHttpError) =>
      expect(error.body.message).toBe(
        // The fetch_status table is a rule of the schema: the router refuses the body before the
        // handler, naming the variant the result is closest to.
        'body.result_list[1]: as failed, object_id: must be null',
      ),
    );
    expect((await urlCounts(scheduler.client)).leased).toBe(2);
    // The lease is untouched: a correct report afterwards is applied normally.
    expect(await reportAllDone(scheduler.client, lease)).toMatchObject({ accepted_count: 2 });
  });

  it('refuses a result for a URL outside the lease, or a second result for one task, applying nothing', async () => {
    const lease = await leaseOf(2);
    const [first, second] = lease.task_list;
    const outsider = { ...first, url_hash: 'ffffffffffffffffffffffffffffffff' };
    for (const result_list of [
      [doneResult(first), doneResult(outsider)],
      [doneResult(first), doneResult(second), failedResult(second, 'navigation_timeout')],
    ]) {
      await expect(
        scheduler.client.reportLease({ lease_id: lease.lease_id, worker_id: 'w1', result_list }),
      ).rejects.toMatchObject(expectContractError(400, 'invalid_request'));
    }
    expect((await urlCounts(scheduler.client)).leased).toBe(2);
    expect(await reportAllDone(scheduler.client, lease)).toMatchObject({ accepted_count: 2 });
  });

  it('checks every row of the fetch_status table', async () => {
    const lease = await leaseOf(1);
    const task = lease.task_list[0];
    // Deliberately broken results: the types (a union of the table's variants) forbid them.
    const violations: ReportResultFields[] = [
      { ...doneResult(task), object_id: null },
      { ...doneResult(task), statistics: null },
      { ...doneResult(task), health_signal: null },
      { ...doneResult(task), link_list: null },
      { ...doneResult(task), fetch_status: 'empty', link_list: null },
      { ...doneResult(task), fail_reason: 'navigation_timeout' },
      { ...notModifiedResult(task), health_signal: healthySignal() },
      { ...notModifiedResult(task), link_list: [] },
      { ...failedResult(task, 'navigation_timeout'), statistics: doneResult(task).statistics },
      { ...failedResult(task, 'navigation_timeout'), fail_reason: null },
    ];
    for (const result of violations) {
      await expect(
        scheduler.client.reportLease({
          lease_id: lease.lease_id,
          worker_id: 'w1',
          result_list: [result as ReportResult],
        }),
      ).rejects.toMatchObject(expectContractError(400, 'fetch_status_mismatch'));
    }
    expect((await urlCounts(scheduler.client)).leased).toBe(1);
  });

  it('answers 404 lease_not_found and 409 lease_worker_mismatch', async () => {
    const lease = await leaseOf(1);
    await expect(
      scheduler.client.reportLease({
        lease_id: 'l-0123456789abcdef',
        worker_id: 'w1',
        result_list: [],
      }),
    ).rejects.toMatchObject(expectContractError(404, 'lease_not_found'));
    const foreign = { lease_id: lease.lease_id, worker_id: 'w2', result_list: [] };
    await expect(scheduler.client.reportLease(foreign)).rejects.toMatchObject(
      expectContractError(409, 'lease_worker_mismatch'),
    );
    await reportAllDone(scheduler.client, lease);
    // Still refused once the answer is stored: the answer belongs to w1.
    await expect(scheduler.client.reportLease(foreign)).rejects.toMatchObject(
      expectContractError(409, 'lease_worker_mismatch'),
    );
  });

  it('re-queues tasks missing from the report at once', async () => {
    const lease = await leaseOf(3);
    const answer = await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [doneResult(lease.task_list[0])],
    });
    expect(answer).toMatchObject({ accepted_count: 1, requeued_count: 2 });
    const again = await scheduler.client.leaseTasks({ worker_id: 'w2', task_count: 50 });
    expect(again.task_list.map((task) => task.url_hash).sort()).toEqual(
      lease.task_list
        .slice(1)
        .map((task) => task.url_hash)
        .sort(),
    );
  });

  it('keeps the object on not_modified and pushes the next visit out', async () => {
    await scheduler.client.submitRules({
      rule_list: [ruleFor('news.example', { revisit_interval_seconds: 100 })],
    });
    await scheduler.client.submitSeeds({ seed_list: [{ url: 'https://news.example/a' }] });
    let lease = await scheduler.client.leaseTasks({ worker_id: 'w1' });
    await reportAllDone(scheduler.client, lease);
    clock.advance(101_000);
    lease = await scheduler.client.leaseTasks({ worker_id: 'w1' });
    expect(lease.task_list[0].etag).toBe('"v1"');
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [notModifiedResult(lease.task_list[0])],
    });
    clock.advance(101_000); // the base interval has passed, the doubled one has not
    expect((await scheduler.client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(0);
    clock.advance(100_000);
    const third = await scheduler.client.leaseTasks({ worker_id: 'w1' });
    expect(third.task_list[0]).toMatchObject({
      etag: '"v1"',
      last_modified_at: '2026-08-15T06:30:00Z',
    });
    expect((await urlCounts(scheduler.client)).failed).toBe(0);
  });

  it('retries a failed fetch after a backoff and parks it after the last attempt', async () => {
    let lease = await leaseOf(1);
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [failedResult(lease.task_list[0], 'navigation_timeout')],
    });
    expect((await scheduler.client.leaseTasks({ worker_id: 'w1' })).task_list).toHaveLength(0);
    clock.advance(61_000);
    lease = await scheduler.client.leaseTasks({ worker_id: 'w1' });
    expect(lease.task_list).toHaveLength(1);
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [failedResult(lease.task_list[0], 'navigation_timeout')],
    });
    expect(await urlCounts(scheduler.client)).toMatchObject({ failed: 1, queued: 0, leased: 0 });
  });

  it('parks robots_disallowed at once', async () => {
    const lease = await leaseOf(1);
    await scheduler.client.reportLease({
      lease_id: lease.lease_id,
      worker_id: 'w1',
      result_list: [failedResult(lease.task_list[0], 'robots_disallowed')],
    });
    expect(await urlCounts(scheduler.client)).toMatchObject({ failed: 1, queued: 0 });
  });

  it('parks a URL whose leases keep expiring instead of looping forever', async () => {
    await leaseOf(1);
    for (let expiry = 0; expiry < 3; expiry += 1) {
      clock.advance(31_000);
      const lease = await scheduler.client.leaseTasks({ worker_id: 'w1', lease_ttl_seconds: 30 });
      expect(lease.task_list).toHaveLength(expiry < 2 ? 1 : 0);
    }
    expect(await urlCounts(scheduler.client)).toMatchObject({ failed: 1, leased: 0, queued: 0 });
    expect((await scheduler.client.getFrontierSummary({})).expired_lease_count).toBe(3);
  });

  it('never drives counters negative under duplicate and concurrent reports and a racing reclaimer', async () => {
    await scheduler.client.submitRules({ rule_list: [ruleFor('a.example'), ruleFor('b.example')] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['a.example', 'b.example'], 10) });
    const first = await scheduler.client.leaseTasks({
      worker_id: 'w1',
      task_count: 10,
      lease_ttl_seconds: 10,
    });
    const second = await scheduler.client.leaseTasks({
      worker_id: 'w2',
      task_count: 10,
      lease_ttl_seconds: 60,
    });
    clock.advance(10_500); // `first` has expired; `second` is live
    const reportOf = (lease: LeaseResponse) => ({
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      result_list: lease.task_list.map((task) => doneResult(task)),
    });
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => scheduler.client.reportLease(reportOf(first))),
      ...Array.from({ length: 4 }, () => scheduler.client.reportLease(reportOf(second))),
      scheduler.client.leaseTasks({ worker_id: 'w3', task_count: 50, lease_ttl_seconds: 60 }),
      scheduler.client.leaseTasks({ worker_id: 'w4', task_count: 50, lease_ttl_seconds: 60 }),
    ]);
    for (const answer of answers.slice(0, 4))
      expect(answer).toMatchObject({ is_stale_lease: true, accepted_count: 0 });
    for (const answer of answers.slice(4, 8)) {
      expect(answer).toMatchObject({
        is_stale_lease: false,
        accepted_count: second.task_list.length,
      });
    }
    const releasedCount = answers
      .slice(8)
      .reduce((sum, lease) => sum + ('task_list' in lease ? lease.task_list.length : 0), 0);
    const counts = await urlCounts(scheduler.client);
    expect(counts.leased).toBe(releasedCount);
    expect(counts.done).toBe(second.task_list.length);
    const inFlight = [...(await inFlightByDomain(scheduler.client)).values()].reduce(
      (sum, count) => sum + count,
      0,
    );
    expect(inFlight).toBe(releasedCount);
    const metrics = await (await fetch(`${scheduler.url}/metrics`)).text();
    expect(metrics).toMatch(/^scheduler_negative_count_prevented_total 0$/m);
    // The known-url set was read in after start-up (link presence from memory): its size is shown.
    expect(Number(/^scheduler_known_url_bytes (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    // Its LMDB store writes behind a journal by default (README, Storage): the layer reports.
    expect(metrics).toMatch(/^storage_write_behind_overlay_row_count \d+$/m);
  });
});
