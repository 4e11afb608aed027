import type { Logger } from 'pino';
import { resourceUseSince } from '../../common/process/resource-use';
import { MAX_SCAN_LIMIT } from '../../common/storage/table-storage';
import type { FrontierParts } from './assemble-frontier';
import type { Clock } from './clock';
import type { DomainSchedule, QueueHead } from './domain-schedule';
import type {
  DomainCandidateDocument,
  FrontierRuntimeDocument,
  LeaseTaskDocument,
  UrlTaskDocument,
} from './frontier-documents';
import { EMPTY_INDEX_ENTRY, FRONTIER_RUNTIME_KEY, type FrontierTables } from './frontier-tables';
import { placementOf } from './index-placement';
import { LoadedScheduleSettler } from './loaded-schedule-settler';
import { msOfTimeText, timeTextOf } from './time-text';
import { leasedBy } from './url-task-transitions';
import { DocumentTallies, type DomainTally, type UrlTaskCensus } from './url-task-census';
import type { WriteBatch } from './write-batch';

/**
 * The layout of the scheduler's keyspace these modules write: 2 = leases held by their records
 * (url_task is not rewritten on lease), domain_runtime counts, bucketed url_revisit_index; 3 = the
 * same, with domain_runtime rows written behind memory (exact only after a clean stop). Data of an
 * older layout (or none) is recounted — and migrated — by one pass over url_task; a scheduler of
 * layout 2, which trusted its rows after a crash on LMDB, recounts data of layout 3 as well.
 */
export const FRONTIER_LAYOUT_VERSION = 3;

/** What a start did, for its callers (its log line says more). */
export interface FrontierStartup {
  /** The domain_runtime counts were not trusted: one pass over url_task recounted them. */
  isRecounted: boolean;
}

/** Writes per batch while start-up migrates or rewrites rows. */
const STARTUP_BATCH_WRITES = 2000;

/** What start-up rebuilds, and what it needs to do so. */
export type FrontierMemory = Pick<
  FrontierParts,
  | 'tables'
  | 'mutator'
  | 'rules'
  | 'book'
  | 'counters'
  | 'candidates'
  | 'health'
  | 'leases'
  | 'reclaimer'
  | 'promoter'
  | 'activity'
  | 'reconciler'
> & {
  clock: Clock;
  logger: Logger;
  /** A recount's pass over url_task without its documents, where the store has one. */
  census: UrlTaskCensus | undefined;
};

/**
 * Rebuilds everything the frontier keeps in memory from storage, before the first request, and
 * settles what a crash may have left half done:
 *
 *   - rules, candidates, health rows, and one `domain_runtime` row per domain (its share of the
 *     frontier: counts per state, due entries, a lower bound of its queue head, dequeue times). No
 *     pass over url_task: start-up costs one row per domain, whatever the frontier's size. The rows
 *     are written behind memory (domain-runtime-rows.ts), so they are trusted only when they belong
 *     to this layout and the last run stopped cleanly; otherwise — after a crash — one pass over
 *     url_task recounts them (and migrates data of an older layout);
 *   - the live leases, from their records: a lease whose answer is stored was settled before a
 *     crash interrupted its clean-up — it is finished now, never counted live; a lease holds the
 *     URLs it lists that no report or expiry was applied to;
 *   - leases already expired are reclaimed before the port opens, so the first answer never shows
 *     an expired lease as live;
 *   - every domain waits one min_interval_ms from now: the write-behind of next_dequeue_at may have
 *     lost its last moments, and a restart may lengthen an interval but never shorten one.
 */
export async function rebuildFrontierMemory(memory: FrontierMemory): Promise<FrontierStartup> {
  const startedAtMs = Date.now();
  const resourceUseBefore = process.resourceUsage();
  const phases = new PhaseClock();
  const { tables, clock, rules, book, health, candidates, logger } = memory;
  const nowMs = clock.nowMs();
  await tables.rules.forEachValue((rule) => {
    rules.remember(rule);
  });
  phases.lap('rule_read');

  const candidateRows: DomainCandidateDocument[] = [];
  await tables.domainCandidates.forEachValue((row) => {
    candidateRows.push(row);
  });
  candidates.load(candidateRows);
  await tables.domainHealth.forEachValue((row) => health.load(row));

  const leaseRecords: LeaseTaskDocument[] = [];
  await tables.leaseTasks.forEachValue((lease) => {
    leaseRecords.push(lease);
  });
  const answered = await answeredLeaseIds(tables, leaseRecords);
  const unsettled = leaseRecords.filter((lease) => !answered.has(lease.lease_id));

  const runtime = await tables.frontierRuntime.get(FRONTIER_RUNTIME_KEY);
  const isTrusted =
    runtime !== undefined &&
    runtime.layout_version === FRONTIER_LAYOUT_VERSION &&
    runtime.is_clean_stop;
  phases.lap('side_table_read');
  book.beginLoading();
  const settler = new LoadedScheduleSettler(book, nowMs);
  let heldCount: number;
  if (isTrusted) {
    // The leases first: each row's schedule is settled as it is read (LoadedScheduleSettler).
    heldCount = await loadLiveLeases(memory, unsettled);
    phases.lap('lease_load');
    await loadDomainRows(memory, settler);
    phases.lap('domain_read');
  } else {
    // Layout 1 (or no frontier_runtime row: data written before it existed) needs migrating.
    const isLayoutOne = runtime === undefined || runtime.layout_version < 2;
    const heads = await recountFromUrlTasks(memory, unsettled, isLayoutOne, phases);
    phases.lap('domain_read');
    // The migration's writes may have moved URLs the lease records list: those read after them.
    heldCount = await loadLiveLeases(memory, unsettled);
    phases.lap('lease_load');
    for (const schedule of book.all()) settler.settle(schedule, heads.get(schedule) ?? null);
  }
  book.finishLoading();
  settler.countInto(memory.counters, heldCount);
  phases.lap('schedule_settle');

  await memory.mutator.run((batch) => {
    // An answered lease whose record outlived a crash: its work is durable, it is not live.
    for (const leaseId of answered) batch.delete(tables.leaseTasks, leaseId);
    // Until a clean stop says otherwise, the rows written behind are not trusted.
    stageRuntimeRow(batch, tables, { isCleanStop: false, nowMs });
  });
  // The records so far first: the reclaim below counts its own as it writes them.
  await memory.activity.load(nowMs);
  await memory.promoter.load();
  const reclaimedCount = await memory.mutator.run((batch) =>
    memory.reclaimer.reclaimDue(batch, nowMs, Number.MAX_SAFE_INTEGER),
  );

  for (const domain of candidates.domains()) {
    if (rules.get(domain) !== undefined) memory.reconciler.enqueue(domain);
  }
  phases.lap('startup_write');
  logger.info(
    {
      url_count: settler.urlCount,
      domain_count: book.size,
      domain_rule_count: rules.size,
      live_lease_count: memory.leases.count,
      reclaimed_lease_count: reclaimedCount,
      settled_lease_count: answered.size,
      candidate_count: candidates.size,
      is_recounted: !isTrusted,
      elapsed_ms: Date.now() - startedAtMs,
      ...phases.spent,
      ...resourceUseSince(resourceUseBefore),
    },
    'frontier loaded',
  );
  return { isRecounted: !isTrusted };
}

/**
 * A clean stop's last mutation, after everything else is written: every domain_runtime row memory
 * holds ahead of storage, and the mark that lets the next start trust them. Resolves to false when
 * the frontier had failed (nothing is written then). Frontier.stop runs it, and tests that stop.
 */
export function closeCleanly(
  parts: Pick<FrontierParts, 'mutator' | 'runtimeRows' | 'tables'>,
  nowMs: number,
): Promise<boolean> {
  return parts.mutator.close((batch) => {
    parts.runtimeRows.stageWriteBehind(batch, nowMs, { isForced: true });
    stageRuntimeRow(batch, parts.tables, { isCleanStop: true, nowMs });
  });
}

function stageRuntimeRow(
  batch: WriteBatch,
  tables: FrontierTables,
  { isCleanStop, nowMs }: { isCleanStop: boolean; nowMs: number },
): void {
  const row: FrontierRuntimeDocument = {
    layout_version: FRONTIER_LAYOUT_VERSION,
    is_clean_stop: isCleanStop,
    updated_at: timeTextOf(nowMs),
  };
  batch.put(tables.frontierRuntime, FRONTIER_RUNTIME_KEY, row, 'cleanup');
}

/**
 * Milliseconds of each phase of the rebuild, for its log line: a slow start then says where it
 * was slow (the rules, the domain rows, the schedules, the writes) without a profiler.
 */
class PhaseClock {
  readonly spent: Record<`${string}_ms`, number> = {};
  #lastMs = performance.now();

  lap(phase: string): void {
    const nowMs = performance.now();
    this.spent[`${phase}_ms`] = Math.round(nowMs - this.#lastMs);
    this.#lastMs = nowMs;
  }
}

/**
 * The fast path: one domain_runtime row per domain, each schedule settled as its row is read (the
 * live leases are loaded already). A schedule that exists without a row — made by a live lease or
 * a health row of a domain none was written for — is settled after the last row.
 */
async function loadDomainRows(
  memory: FrontierMemory,
  settler: LoadedScheduleSettler,
): Promise<void> {
  const { book } = memory;
  // Few: the schedules of unhealthy domains and of URLs live leases hold.
  const madeBeforeRows = new Set(book.all());
  await memory.tables.domainRuntime.forEachValue((row) => {
    const schedule = book.obtain(row.domain);
    schedule.nextDequeueAtMs = row.next_dequeue_at === null ? 0 : msOfTimeText(row.next_dequeue_at);
    schedule.lastDequeueAtMs =
      row.last_dequeue_at === null ? null : msOfTimeText(row.last_dequeue_at);
    const { stored } = schedule;
    stored.queued = row.queued_url_count;
    stored.done = row.done_url_count;
    stored.failed = row.failed_url_count;
    stored.waitingForRule = row.waiting_url_count;
    stored.dropped = row.dropped_url_count;
    stored.due = row.due_url_count;
    const head =
      row.head_priority_rank === null || row.head_due_at === null
        ? null
        : { rank: row.head_priority_rank, dueAtMs: msOfTimeText(row.head_due_at) };
    madeBeforeRows.delete(schedule);
    settler.settle(schedule, head);
  });
  for (const schedule of madeBeforeRows) settler.settle(schedule, null);
}

/**
 * The slow path: one pass over url_task recounts every domain (exact heads included) and marks
 * every row to be written behind. On a store that holds url_task in memory the pass reads its
 * columns (`memory.census`); otherwise it scans the documents, and migrates data of layout 1 on the
 * way (`isLayoutOne`, which always scans) — URLs stored as `leased` become queued with their due
 * entry (held by their live lease, or free again when no live lease lists them), re-visit entries
 * move to their shard bucket. Data of a later layout has nothing to migrate (a start after a
 * crash): rewriting every re-visit entry and scanning the index for unbucketed keys took ~0.6 s of
 * a 1.3M-URL recount and wrote a row per done URL for nothing.
 */
async function recountFromUrlTasks(
  memory: FrontierMemory,
  unsettled: readonly LeaseTaskDocument[],
  isLayoutOne: boolean,
  phases: PhaseClock,
): Promise<Map<DomainSchedule, QueueHead>> {
  const { tables, book, mutator, logger, census } = memory;
  logger.warn(
    'recounting the frontier from url_task (no domain_runtime counts of a clean stop of this layout)',
  );
  const listed = new Map<string, string>();
  for (const lease of unsettled) {
    for (const task of lease.task_list) listed.set(task.url_hash, lease.lease_id);
  }
  const pending: Array<(batch: WriteBatch) => void> = [];
  const flush = async () => {
    const writes = pending.splice(0);
    if (writes.length > 0) await mutator.run((batch) => writes.forEach((write) => write(batch)));
  };
  const isCensused = census !== undefined && !isLayoutOne;
  let tallies: Iterable<DomainTally>;
  if (isCensused) {
    tallies = census.tallyAll(listed);
  } else {
    const documents = new DocumentTallies(listed);
    await tables.urlTasks.forEachValueByPages((stored) => {
      documents.add(isLayoutOne ? migratedFromLayoutOne(memory, stored, pending) : stored);
      return pending.length >= STARTUP_BATCH_WRITES ? flush() : undefined;
    });
    tallies = documents.all();
  }
  const heads = new Map<DomainSchedule, QueueHead>();
  let urlCount = 0;
  for (const tally of tallies) {
    const schedule = book.obtain(tally.domain);
    Object.assign(schedule.stored, tally.stored);
    if (tally.head !== null) heads.set(schedule, tally.head);
    urlCount += tally.urlCount;
  }
  if (isLayoutOne) await removeUnbucketedRevisitEntries(memory, pending, flush);
  await flush();
  phases.lap('url_task_count');
  // Every row is behind what the recount found. All are marked changed: the write-behind writes
  // them a slice at a time, and a clean stop writes what is left — so the rows the next start
  // trusts are this recount's. Rewritten here instead, 100,000 rows held a start after a crash at
  // 1M URLs for ~250 ms more.
  for (const schedule of book.all()) book.markRuntimeChanged(schedule);
  logger.info({ url_count: urlCount, is_censused: isCensused }, 'frontier recounted from url_task');
  return heads;
}

/**
 * A url_task of layout 1 as this layout stores it, with the writes that move it there staged in
 * `pending`: a URL stored as leased is queued again with its due entry (a live lease that lists it
 * still holds it), and a re-visit entry is put under its bucketed key (idempotent).
 */
function migratedFromLayoutOne(
  { tables }: FrontierMemory,
  stored: UrlTaskDocument,
  pending: Array<(batch: WriteBatch) => void>,
): UrlTaskDocument {
  let task = stored;
  if (task.url_state === 'leased') {
    task = { ...task, url_state: 'queued', is_in_due_index: true };
    const migrated = task;
    const entry = placementOf(task);
    if (entry !== undefined) {
      pending.push((batch) => batch.put(tables.dueIndex, entry.key, EMPTY_INDEX_ENTRY, 'pointers'));
    }
    pending.push((batch) => batch.put(tables.urlTasks, migrated.url_hash, migrated, 'transitions'));
  }
  const placement = placementOf(task);
  if (placement?.indexName === 'revisit') {
    pending.push((batch) =>
      batch.put(tables.revisitIndex, placement.key, EMPTY_INDEX_ENTRY, 'pointers'),
    );
  }
  return task;
}

/** Layout 1 keyed url_revisit_index `{due_at}/{url_hash}`; the recount put them under buckets. */
async function removeUnbucketedRevisitEntries(
  memory: FrontierMemory,
  pending: Array<(batch: WriteBatch) => void>,
  flush: () => Promise<void>,
): Promise<void> {
  const { revisitIndex } = memory.tables;
  let after: Parameters<typeof revisitIndex.scanKeys>[0]['after'];
  for (;;) {
    const page = await revisitIndex.scanKeys({ after, limit: MAX_SCAN_LIMIT });
    for (const key of page.keys) {
      if (key.parts.length === 2) pending.push((batch) => batch.delete(revisitIndex, key));
    }
    if (pending.length >= STARTUP_BATCH_WRITES) await flush();
    if (page.nextAfter === null) return;
    after = page.nextAfter;
  }
}

/** Leases whose answer is stored (settled before a crash cut their clean-up short). */
async function answeredLeaseIds(
  tables: FrontierTables,
  leases: readonly LeaseTaskDocument[],
): Promise<Set<string>> {
  const answers = await tables.leaseResults.getMany(leases.map((lease) => lease.lease_id));
  return new Set(leases.filter((_, index) => answers[index] !== undefined).map((l) => l.lease_id));
}

/**
 * The live leases into the lease book: each holds the URLs it lists whose documents name another
 * lease as applied (a report or reclaim interrupted by a crash may have moved some already).
 * Resolves to the number of URLs held.
 */
async function loadLiveLeases(
  memory: FrontierMemory,
  unsettled: readonly LeaseTaskDocument[],
): Promise<number> {
  let heldCount = 0;
  for (const lease of unsettled) {
    const hashes = lease.task_list.map((task) => task.url_hash);
    const tasks: Array<UrlTaskDocument | undefined> =
      hashes.length === 0 ? [] : await memory.tables.urlTasks.getMany(hashes);
    const held = tasks.filter(
      (task): task is UrlTaskDocument =>
        task !== undefined &&
        task.applied_lease_id !== lease.lease_id &&
        (task.url_state === 'queued' || task.url_state === 'leased'),
    );
    memory.leases.add(lease, held.map(leasedBy));
    for (const task of held) {
      const schedule = memory.book.obtain(task.domain);
      schedule.inFlightCount += 1;
      schedule.dueCount -= 1; // its entry stays, but it is not due while leased
    }
    heldCount += held.length;
  }
  return heldCount;
}
