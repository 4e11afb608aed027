import { failedResult, link } from '../testing/contract-fixtures';
import {
  doneReportOf,
  leaseFrom,
  openTestFrontier,
  seedTestFrontier,
  type TestFrontier,
} from '../testing/test-frontier';
import {
  FetchStatusTableError,
  ForeignLeaseError,
  ResultOutsideLeaseError,
  UnknownLeaseError,
} from './frontier-errors';
import type { CommitMode } from './commit-queue';
import type { LeaseResponse, ReportResult } from './wire-types';

/*
 * The report path without HTTP: the frontier's parts over real LMDB, a manual clock, storage that
 * can be held or "killed" between two writes.
 */
describe('ReportApplier', () => {
  let frontier: TestFrontier;

  afterEach(() => frontier.dispose());

  async function leasedFrontier(
    options: { commitMode?: CommitMode; urlCount?: number } = {},
  ): Promise<LeaseResponse> {
    frontier = await openTestFrontier({
      commitMode: options.commitMode,
      settings: { domainInFlightCap: 50 },
    });
    await seedTestFrontier(frontier.parts, ['news.example'], options.urlCount ?? 3);
    return leaseFrom(frontier.parts, { leaseTtlSeconds: 30 });
  }

  it('applies a report once: the answer, the URLs moved on, the lease forgotten; a repeat gets the same answer', async () => {
    const lease = await leasedFrontier();
    const { reportApplier, leases, store } = frontier.parts;
    const request = doneReportOf(lease, (task) => [link(`${task.url}/next`)]);
    const answer = await reportApplier.report(request);
    expect(answer).toEqual({
      lease_id: lease.lease_id,
      is_stale_lease: false,
      accepted_count: 3,
      requeued_count: 0,
    });
    expect(leases.get(lease.lease_id)).toBeUndefined();
    const tasks = await store.readUrlTasks(lease.task_list.map((task) => task.url_hash));
    expect(tasks.map((task) => [task?.url_state, task?.applied_lease_id])).toEqual(
      Array.from({ length: 3 }, () => ['done', lease.lease_id]),
    );
    frontier.clock.advance(3_600_000); // long after expiry: the answer is kept, not re-decided
    expect(await reportApplier.report(request)).toEqual(answer);
    expect(frontier.parts.summary.summarize(10, frontier.clock.nowMs()).url_state_list).toEqual(
      expect.arrayContaining([
        { url_state: 'done', url_count: 3 },
        { url_state: 'queued', url_count: 3 }, // the three links
        { url_state: 'leased', url_count: 0 },
      ]),
    );
  });

  it('answers a report after expires_at as stale, applies none of it, and re-queues the URLs', async () => {
    const lease = await leasedFrontier();
    frontier.clock.advance(31_000);
    const answer = await frontier.parts.reportApplier.report(
      doneReportOf(lease, () => [link('https://news.example/only-in-a-late-report')]),
    );
    expect(answer).toMatchObject({ is_stale_lease: true, accepted_count: 0 });
    const again = await leaseFrom(frontier.parts, { workerId: 'w2' });
    expect(again.task_list.map((task) => task.url_hash).sort()).toEqual(
      lease.task_list.map((task) => task.url_hash).sort(),
    );
  });

  it('refuses what it cannot apply with what happened, and changes nothing', async () => {
    const lease = await leasedFrontier();
    const { reportApplier, leases } = frontier.parts;
    const [first, second] = lease.task_list;
    await expect(
      reportApplier.report({ lease_id: 'l-0123456789abcdef', worker_id: 'w1', result_list: [] }),
    ).rejects.toBeInstanceOf(UnknownLeaseError);
    await expect(
      reportApplier.report({ ...doneReportOf(lease), worker_id: 'w2' }),
    ).rejects.toBeInstanceOf(ForeignLeaseError);
    await expect(
      reportApplier.report({
        ...doneReportOf(lease),
        // The schema's types forbid it; a caller that bypasses them is still refused.
        result_list: [
          {
            ...failedResult(first, 'navigation_timeout'),
            object_id: 'x',
          } as unknown as ReportResult,
        ],
      }),
    ).rejects.toBeInstanceOf(FetchStatusTableError);
    const twice = doneReportOf(lease).result_list;
    await expect(
      reportApplier.report({ ...doneReportOf(lease), result_list: [...twice, twice[1]] }),
    ).rejects.toBeInstanceOf(ResultOutsideLeaseError);
    expect(leases.get(lease.lease_id)?.heldUrlHashes).toContain(second.url_hash);
    expect(await reportApplier.report(doneReportOf(lease))).toMatchObject({ accepted_count: 3 });
  });

  it('gives the event loop two turns before its decision: before and after preparing its links', async () => {
    // A lease waiting for its commit's completion is answered between a report's parts, not after
    // the whole report (bench:frontier's lease p50 and p99 at 4 workers).
    const lease = await leasedFrontier();
    const { reportApplier, mutator } = frontier.parts;
    const order: string[] = [];
    const countTurns = () =>
      setImmediate(() => {
        order.push('turn');
        if (order.length < 8) countTurns();
      });
    const run = mutator.run.bind(mutator);
    jest.spyOn(mutator, 'run').mockImplementationOnce((decide, isUrgent) => {
      order.push('decision');
      return run(decide, isUrgent);
    });
    countTurns();
    expect(await reportApplier.report(doneReportOf(lease))).toMatchObject({ accepted_count: 3 });
    expect(order.indexOf('decision')).toBeGreaterThanOrEqual(2);
  });

  it('answers a copy arriving while the first is being committed — even past expires_at — with the applied answer', async () => {
    // Issue 12 race 1: the first copy was applied, then the lease expired before its answer was
    // stored; the copy (or the reclaimer) used to store the stale answer and win.
    const lease = await leasedFrontier();
    const { reportApplier, reclaimer, mutator, leases } = frontier.parts;
    const release = frontier.storage.hold();
    const first = reportApplier.report(doneReportOf(lease));
    // Decided (the lease is settled in memory) while its commit is held.
    for (let turn = 0; turn < 10 && leases.get(lease.lease_id) !== undefined; turn += 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(leases.get(lease.lease_id)).toBeUndefined();
    frontier.clock.advance(31_000);
    const copy = reportApplier.report(doneReportOf(lease));
    const reclaimed = mutator.run((batch) =>
      reclaimer.reclaimDue(batch, frontier.clock.nowMs(), 100),
    );
    release();
    const applied = { is_stale_lease: false, accepted_count: 3, requeued_count: 0 };
    expect(await first).toMatchObject(applied);
    expect(await copy).toMatchObject(applied);
    expect(await reclaimed).toBe(0);
  });

  describe('on a backend without atomic batches, killed between two writes', () => {
    it('re-applies nothing when the retried report finds the results applied but no answer', async () => {
      const lease = await leasedFrontier({ commitMode: 'phased' });
      const request = doneReportOf(lease, (task) => [link(`${task.url}/found`)]);
      // Let the report's commit write up to its transitions, then die before its answer.
      const before = frontier.storage.writes.length;
      frontier.storage.crashAt(/^put scheduler:lease_result:/);
      await expect(frontier.parts.reportApplier.report(request)).rejects.toThrow();
      const written = frontier.storage.writes.slice(before).join('\n');
      expect(written).toMatch(/url_task/);
      expect(written).not.toMatch(/lease_result/);

      const restarted = await frontier.reopen();
      expect(restarted.parts.leases.get(lease.lease_id)).toBeDefined();
      expect(await restarted.parts.reportApplier.report(request)).toEqual({
        lease_id: lease.lease_id,
        is_stale_lease: false,
        accepted_count: 3,
        requeued_count: 0,
      });
      const counts = restarted.parts.summary.summarize(10, restarted.clock.nowMs());
      expect(counts.url_state_list).toEqual(
        expect.arrayContaining([
          { url_state: 'done', url_count: 3 },
          { url_state: 'queued', url_count: 3 },
          { url_state: 'leased', url_count: 0 },
        ]),
      );
      expect(counts.live_lease_count).toBe(0);
    });

    it('never counts a lease live once its answer is stored (issue 12 race 2)', async () => {
      const lease = await leasedFrontier({ commitMode: 'phased' });
      const request = doneReportOf(lease);
      // Dies after the answer, before the lease record is deleted.
      frontier.storage.crashAt(/^delete scheduler:lease_task:/);
      await expect(frontier.parts.reportApplier.report(request)).rejects.toThrow();
      const restarted = await frontier.reopen();
      const summary = restarted.parts.summary.summarize(10, restarted.clock.nowMs());
      expect(summary.live_lease_count).toBe(0);
      expect(await restarted.parts.tables.leaseTasks.get(lease.lease_id)).toBeUndefined();
      expect(await restarted.parts.reportApplier.report(request)).toMatchObject({
        is_stale_lease: false,
        accepted_count: 3,
      });
    });
  });
});
