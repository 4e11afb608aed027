import type { OrderedKeyValueBackend } from '../../common/storage/ordered-key-value-backend';
import { primaryKey } from '../../common/storage/primary-key';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import { urlHash } from '../../common/url';
import { doneResult, failedResult, link, ruleFor } from '../testing/contract-fixtures';
import {
  doneReportOf,
  leaseFrom,
  openTestFrontier,
  seedTestFrontier,
  type TestFrontier,
} from '../testing/test-frontier';
import type { FrontierParts } from './assemble-frontier';
import { shardBucketOf } from './domain-shard';
import { FRONTIER_RUNTIME_KEY } from './frontier-tables';
import { parseFrontierUrl } from './frontier-url';
import type { LeaseResponse, ReportRequest } from './wire-types';

/** What start-up rebuilds that a caller can see: counts by state, leases, per-domain queues. */
function memoryOf(parts: FrontierParts, nowMs: number) {
  const summary = parts.summary.summarize(1000, nowMs);
  return {
    urlStates: summary.url_state_list,
    liveLeaseCount: summary.live_lease_count,
    domains: [...parts.memory.book.all()]
      .map((schedule) => ({
        domain: schedule.domain,
        dueCount: schedule.dueCount,
        inFlightCount: schedule.inFlightCount,
        stored: { ...schedule.stored },
      }))
      .sort((left, right) => (left.domain < right.domain ? -1 : 1)),
  };
}

/** The report of a lease: the first task done with two links, the second failed, the rest missing. */
function mixedReportOf(lease: LeaseResponse): ReportRequest {
  const [first, second] = lease.task_list;
  const done = doneReportOf(lease, (task) => [
    link(`${task.url}/child`),
    link(`https://elsewhere.example/from-${task.url_hash}`),
  ]).result_list[0];
  return {
    lease_id: lease.lease_id,
    worker_id: lease.worker_id,
    result_list: [done, failedResult(second, 'navigation_timeout')].filter(
      (result) => result.url_hash === first.url_hash || result.url_hash === second.url_hash,
    ),
  };
}

describe('frontier start-up', () => {
  let frontier: TestFrontier;

  afterEach(() => frontier.dispose());

  /** Opens a frontier with reports, expired and live leases behind it; resolves to its memory. */
  async function busyFrontier(): Promise<ReturnType<typeof memoryOf>> {
    frontier = await openTestFrontier({ settings: { domainInFlightCap: 3 } });
    await seedTestFrontier(frontier.parts, ['a.example', 'b.example', 'c.example'], 4);
    const reported = await leaseFrom(frontier.parts, { taskCount: 4 });
    await frontier.parts.reportApplier.report(mixedReportOf(reported));
    const expiring = await leaseFrom(frontier.parts, { workerId: 'w2', leaseTtlSeconds: 10 });
    await leaseFrom(frontier.parts, { workerId: 'w3', leaseTtlSeconds: 600 });
    frontier.clock.advance(11_000);
    await frontier.parts.mutator.run((batch) =>
      frontier.parts.reclaimer.reclaimDue(batch, frontier.clock.nowMs(), 10),
    );
    expect(frontier.parts.leases.get(expiring.lease_id)).toBeUndefined();
    return memoryOf(frontier.parts, frontier.clock.nowMs());
  }

  it('rebuilds from one domain_runtime row per domain after a clean stop exactly what a recount from url_task finds', async () => {
    const before = await busyFrontier();
    await frontier.stopCleanly();
    const fast = await frontier.reopen();
    expect(fast.startup.isRecounted).toBe(false);
    expect(memoryOf(fast.parts, frontier.clock.nowMs())).toEqual(before);

    await fast.parts.tables.frontierRuntime.delete(FRONTIER_RUNTIME_KEY);
    const recounted = await frontier.reopen();
    expect(recounted.startup.isRecounted).toBe(true);
    expect(memoryOf(recounted.parts, frontier.clock.nowMs())).toEqual(before);
  });

  it('recounts after a crash: the domain_runtime rows lag memory, and only a clean stop writes them all', async () => {
    const before = await busyFrontier();
    // What the reports changed is in memory only: no row was written behind yet.
    const rows = await frontier.parts.tables.domainRuntime.getMany(
      before.domains.map(({ domain }) => domain),
    );
    expect(rows.map((row) => row?.done_url_count ?? 0)).not.toEqual(
      before.domains.map(({ stored }) => stored.done),
    );
    const crashed = await frontier.reopen();
    expect(crashed.startup.isRecounted).toBe(true);
    expect(memoryOf(crashed.parts, frontier.clock.nowMs())).toEqual(before);
    // A start never trusts the rows a run that crashed left, whatever it wrote of them.
    const again = await frontier.reopen();
    expect(again.startup.isRecounted).toBe(true);
    expect(memoryOf(again.parts, frontier.clock.nowMs())).toEqual(before);
    // The recount marked every row changed: a clean stop after it writes what the recount found.
    await again.stopCleanly();
    const trusted = await frontier.reopen();
    expect(trusted.startup.isRecounted).toBe(false);
    expect(memoryOf(trusted.parts, frontier.clock.nowMs())).toEqual(before);
  });

  it('recounts data a scheduler of layout 2 stopped cleanly', async () => {
    const before = await busyFrontier();
    await frontier.stopCleanly();
    await frontier.parts.tables.frontierRuntime.put(FRONTIER_RUNTIME_KEY, {
      layout_version: 2,
      is_clean_stop: true,
      updated_at: '2026-08-15T06:00:00Z',
    });
    const reopened = await frontier.reopen();
    expect(reopened.startup.isRecounted).toBe(true);
    expect(memoryOf(reopened.parts, frontier.clock.nowMs())).toEqual(before);
  });

  describe('after a kill at any write of a report, on a backend without atomic batches', () => {
    /** Sets up a lease to report; resolves to the lease and the number of write calls its report makes. */
    async function prepared(): Promise<{ lease: LeaseResponse }> {
      frontier = await openTestFrontier({
        commitMode: 'phased',
        settings: { domainInFlightCap: 10 },
      });
      await seedTestFrontier(frontier.parts, ['a.example', 'b.example'], 2);
      return { lease: await leaseFrom(frontier.parts, { taskCount: 4, leaseTtlSeconds: 600 }) };
    }

    it('keeps every guarantee whatever prefix of the writes landed', async () => {
      const { lease } = await prepared();
      const callsBefore = frontier.storage.writeCallCount;
      const answer = await frontier.parts.reportApplier.report(mixedReportOf(lease));
      const writeCalls = frontier.storage.writeCallCount - callsBefore;
      await frontier.dispose();
      expect(writeCalls).toBeGreaterThan(3);

      for (let landed = 0; landed < writeCalls; landed += 1) {
        const { lease: killedLease } = await prepared();
        const request = mixedReportOf(killedLease);
        frontier.storage.crashAfter(landed);
        await expect(frontier.parts.reportApplier.report(request)).rejects.toThrow();
        const restarted = await frontier.reopen();
        const { parts } = restarted;
        const nowMs = restarted.clock.nowMs();

        // The retried report is answered as the uninterrupted one was, applying nothing twice.
        expect(await parts.reportApplier.report(request)).toEqual({
          ...answer,
          lease_id: killedLease.lease_id,
        });
        const memory = memoryOf(parts, nowMs);
        const counts = Object.fromEntries(
          memory.urlStates.map((row) => [row.url_state, row.url_count]),
        );
        // 4 seeds: 1 done, 1 failed (queued again after its backoff), 2 missing from the report
        // (re-queued); its links: 1 queued, 1 waiting for its domain's rule.
        expect({ ...counts, landed }).toMatchObject({
          done: 1,
          queued: 4,
          waiting_for_rule: 1,
          leased: 0,
          landed,
        });
        expect(memory.liveLeaseCount).toBe(0);
        // No link lost.
        const links = (request.result_list[0].link_list ?? []).map((item) =>
          parseFrontierUrl(item.url),
        );
        const linkTasks = await parts.store.readUrlTasks(
          links.map((target) => (typeof target === 'string' ? target : target.urlHash)),
        );
        expect(linkTasks.map((task) => task?.url_state)).toEqual(['queued', 'waiting_for_rule']);
        // Every URL is served exactly once from here on.
        const leased: string[] = [];
        for (let round = 0; round < 5; round += 1) {
          const next = await leaseFrom(parts, { workerId: `after-${round}`, taskCount: 50 });
          leased.push(...next.task_list.map((task) => task.url_hash));
        }
        expect(new Set(leased).size).toBe(leased.length);
        expect(leased).toHaveLength(3); // 2 re-queued + 1 link; the failed one waits its backoff
        await restarted.dispose();
      }
    });
    it('never leases a URL twice nor loses one when a lease is cut short', async () => {
      /** A live lease of 4 URLs, and 2 more URLs queued for the lease under test. */
      const preparedForLease = async () => {
        const { lease } = await prepared();
        await frontier.parts.seedIntake.submit([
          { url: 'https://a.example/late-1' },
          { url: 'https://b.example/late-1' },
        ]);
        return lease;
      };
      await preparedForLease();
      const callsBefore = frontier.storage.writeCallCount;
      expect((await leaseFrom(frontier.parts, { workerId: 'w2' })).task_list).toHaveLength(2);
      const writeCalls = frontier.storage.writeCallCount - callsBefore;
      await frontier.dispose();
      expect(writeCalls).toBe(1); // the lease record: nothing else is written for a lease
      for (let landed = 0; landed <= writeCalls; landed += 1) {
        const first = await preparedForLease();
        frontier.storage.crashAfter(landed);
        const cut = await leaseFrom(frontier.parts, { workerId: 'w2' }).catch(() => undefined);
        expect(cut === undefined).toBe(landed < writeCalls);
        const restarted = await frontier.reopen();
        const held = new Set(
          [...restarted.parts.leases.all()].flatMap((lease) => lease.heldUrlHashes),
        );
        const again: string[] = [];
        for (let round = 0; round < 3; round += 1) {
          const lease = await leaseFrom(restarted.parts, { workerId: `after-${round}` });
          again.push(...lease.task_list.map((task) => task.url_hash));
        }
        // Leased again only what no live lease holds; together, every URL exactly once.
        for (const urlHash of again) expect(held.has(urlHash)).toBe(false);
        expect(new Set(again).size).toBe(again.length);
        expect(held.size + again.length).toBe(6);
        for (const task of first.task_list) expect(held.has(task.url_hash)).toBe(true);
        if (cut !== undefined) {
          // An answered lease was durable: it holds its URLs after the restart.
          for (const task of cut.task_list) expect(held.has(task.url_hash)).toBe(true);
        }
        await restarted.dispose();
      }
    });

    it('reclaims an expired lease exactly once when its reclaim is cut short', async () => {
      const { lease } = await prepared();
      frontier.clock.advance(601_000);
      const callsBefore = frontier.storage.writeCallCount;
      await frontier.parts.mutator.run((batch) =>
        frontier.parts.reclaimer.reclaimDue(batch, frontier.clock.nowMs(), 10),
      );
      const writeCalls = frontier.storage.writeCallCount - callsBefore;
      await frontier.dispose();
      for (let landed = 0; landed < writeCalls; landed += 1) {
        const { lease: expiring } = await prepared();
        frontier.clock.advance(601_000);
        frontier.storage.crashAfter(landed);
        await expect(
          frontier.parts.mutator.run((batch) =>
            frontier.parts.reclaimer.reclaimDue(batch, frontier.clock.nowMs(), 10),
          ),
        ).rejects.toThrow();
        const restarted = await frontier.reopen();
        expect(restarted.parts.leases.count).toBe(0);
        const tasks = await restarted.parts.store.readUrlTasks(
          expiring.task_list.map((task) => task.url_hash),
        );
        expect(tasks.map((task) => [task?.url_state, task?.lease_expiry_count])).toEqual(
          Array.from({ length: 4 }, () => ['queued', 1]),
        );
        expect(await restarted.parts.reportApplier.report(doneReportOf(expiring))).toMatchObject({
          is_stale_lease: true,
          accepted_count: 0,
        });
        const again = await leaseFrom(restarted.parts, { workerId: 'w9' });
        expect(again.task_list).toHaveLength(4);
        await restarted.dispose();
      }
      expect(lease.task_list).toHaveLength(4);
    });
  });
});

describe('frontier start-up over data of the older layout', () => {
  let frontier: TestFrontier;

  afterEach(() => frontier.dispose());

  /** What the scheduler before this layout wrote: JSON documents, leased URLs marked leased. */
  async function writeLayoutOne(backend: OrderedKeyValueBackend): Promise<void> {
    const keyspace = openServiceKeyspace('scheduler', backend);
    const at = '2026-08-15T06:00:00Z';
    await keyspace
      .replicaTable<Record<string, unknown>>('domain_rule_replica')
      .applyReplica([
        { primaryKey: 'old.example', value: { ...ruleFor('old.example'), received_at: at } },
      ]);
    const task = (name: string, fields: Record<string, unknown>) => ({
      url: `https://old.example/${name}`,
      url_hash: urlHash(`https://old.example/${name}`),
      domain: 'old.example',
      url_state: 'queued',
      priority_rank: 10,
      seed_priority_rank: null,
      priority_rank_offset: 0,
      due_at: at,
      is_in_due_index: true,
      lease_id: null,
      applied_lease_id: null,
      attempt_count: 0,
      lease_expiry_count: 0,
      fail_reason: null,
      park_reason: null,
      object_id: null,
      etag: null,
      last_modified_at: null,
      fetched_at: null,
      revisit_interval_seconds: null,
      discovered_at: at,
      updated_at: at,
      ...fields,
    });
    const queued = task('queued', {});
    const held = task('held', {
      url_state: 'leased',
      is_in_due_index: false,
      lease_id: 'l-00000000000000aa',
    });
    const orphan = task('orphan', {
      url_state: 'leased',
      is_in_due_index: false,
      lease_id: 'l-00000000000000bb',
    });
    const done = task('done', {
      url_state: 'done',
      is_in_due_index: false,
      due_at: '2026-08-16T06:00:00Z',
    });
    await keyspace
      .table<Record<string, unknown>>('url_task')
      .putMany(
        [queued, held, orphan, done].map((value) => ({ primaryKey: value.url_hash, value })),
      );
    await keyspace
      .table<Record<string, never>>('url_due_index')
      .put(primaryKey('old.example', '0000000000000010', at, queued.url_hash), {});
    const revisit = keyspace.table<Record<string, never>>('url_revisit_index');
    await revisit.put(primaryKey(done.due_at, done.url_hash), {});
    await keyspace.table<Record<string, unknown>>('lease_task').put('l-00000000000000aa', {
      lease_id: 'l-00000000000000aa',
      worker_id: 'w-old',
      leased_at: at,
      expires_at: '2026-08-15T08:00:00Z',
      task_list: [{ url_hash: held.url_hash, domain: 'old.example' }],
    });
  }

  it('recounts once, keeps the live lease, re-queues the orphan and moves re-visits to their buckets', async () => {
    frontier = await openTestFrontier({
      prepareStorage: writeLayoutOne,
      settings: { domainInFlightCap: 10 },
    });
    const { parts } = frontier;
    const nowMs = frontier.clock.nowMs();
    const counts = Object.fromEntries(
      parts.summary
        .summarize(10, nowMs)
        .url_state_list.map((row) => [row.url_state, row.url_count]),
    );
    expect(counts).toMatchObject({ queued: 2, leased: 1, done: 1 });
    expect(parts.leases.get('l-00000000000000aa')?.heldUrlHashes).toEqual([
      urlHash('https://old.example/held'),
    ]);
    const lease = await leaseFrom(parts);
    expect(lease.task_list.map((task) => task.url).sort()).toEqual([
      'https://old.example/orphan',
      'https://old.example/queued',
    ]);
    const revisitKeys = (await parts.tables.revisitIndex.scan({ limit: 10 })).rows.map(
      (row) => row.primaryKey.parts,
    );
    expect(revisitKeys).toEqual([
      [shardBucketOf('old.example'), '2026-08-16T06:00:00Z', urlHash('https://old.example/done')],
    ]);
    expect(
      await parts.reportApplier.report({
        lease_id: 'l-00000000000000aa',
        worker_id: 'w-old',
        result_list: [
          doneResult({
            url: 'https://old.example/held',
            url_hash: urlHash('https://old.example/held'),
          }),
        ],
      }),
    ).toMatchObject({ accepted_count: 1 });
    const before = memoryOf(parts, nowMs);
    const reopened = await frontier.reopen();
    expect(memoryOf(reopened.parts, nowMs)).toEqual(before);
  });
});
