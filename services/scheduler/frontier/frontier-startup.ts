import type { Logger } from 'pino';
import type { ReadonlyKeyspaceTable } from '../../common/storage/keyspace-table';
import { MAX_SCAN_LIMIT } from '../../common/storage/table-storage';
import type { DomainHealthMonitor } from '../health/domain-health-monitor';
import type { CandidateRegistry } from './candidate-registry';
import type { DomainBook } from './domain-book';
import type { DomainReconciler } from './domain-reconciler';
import type { FrontierActivity } from './frontier-activity';
import type { DomainCandidateDocument, UrlTaskDocument } from './frontier-documents';
import type { FrontierStore } from './frontier-store';
import type { FrontierTables } from './frontier-tables';
import type { LiveLeaseRegistry } from './live-lease-registry';
import type { RuleBook } from './rule-book';
import { msOfTimeText } from './time-text';
import type { UrlStateCounters } from './url-state-counters';
import { requeued } from './url-task-transitions';

export interface FrontierMemory {
  tables: FrontierTables;
  store: FrontierStore;
  rules: RuleBook;
  book: DomainBook;
  counters: UrlStateCounters;
  candidates: CandidateRegistry;
  health: DomainHealthMonitor;
  liveLeases: LiveLeaseRegistry;
  activity: FrontierActivity;
  reconciler: DomainReconciler;
}

/**
 * Rebuilds everything the frontier keeps in memory from storage, before the first request. Cost is
 * one pass over url_task (the state counters, per-domain due and in-flight counts and queue heads
 * all come from it) plus the small tables; requests never scan. A lease whose url_tasks were
 * written but whose lease record is gone cannot happen by the write order; if storage was damaged
 * anyway, such URLs are re-queued here instead of staying leased forever.
 */
export async function rebuildFrontierMemory(
  memory: FrontierMemory,
  nowMs: number,
  logger: Logger,
): Promise<void> {
  const startedAtMs = Date.now();
  const { tables, rules, book, health, candidates } = memory;
  await scanAll(tables.rules, (rule) => rules.remember(rule));

  const candidateRows: DomainCandidateDocument[] = [];
  await scanAll(tables.domainCandidates, (row) => candidateRows.push(row));
  candidates.load(candidateRows);

  await scanAll(tables.domainHealth, (row) => health.load(row));

  await scanAll(tables.domainRuntime, (row) => {
    const schedule = book.obtain(row.domain);
    schedule.nextDequeueAtMs = row.next_dequeue_at === null ? 0 : msOfTimeText(row.next_dequeue_at);
    schedule.lastDequeueAtMs =
      row.last_dequeue_at === null ? null : msOfTimeText(row.last_dequeue_at);
  });

  const liveLeaseIds = new Set<string>();
  await scanAll(tables.leaseTasks, (lease) => {
    liveLeaseIds.add(lease.lease_id);
    memory.liveLeases.add(lease.lease_id);
  });

  const orphans: UrlTaskDocument[] = [];
  let urlCount = 0;
  book.beginLoading();
  await scanAll(tables.urlTasks, (task) => {
    urlCount += 1;
    memory.counters.countLoaded(task);
    book.onUrlTaskChanged(undefined, task);
    if (
      task.url_state === 'leased' &&
      (task.lease_id === null || !liveLeaseIds.has(task.lease_id))
    ) {
      orphans.push(task);
    }
  });
  // The write-behind of next_dequeue_at may have lost its last second: every domain waits one
  // interval from now, so a restart can lengthen an interval but never shorten it.
  for (const schedule of book.all()) {
    const rule = rules.get(schedule.domain);
    if (rule !== undefined) {
      schedule.nextDequeueAtMs = Math.max(schedule.nextDequeueAtMs, nowMs + rule.minIntervalMs);
    }
  }
  book.finishLoading();
  await memory.store.commit(
    orphans.map((task) => ({ previous: task, next: requeued(task, null, nowMs) })),
  );

  for (const domain of candidates.domains()) {
    if (rules.get(domain) !== undefined) memory.reconciler.enqueue(domain);
  }
  await memory.activity.load(nowMs);
  logger.info(
    {
      url_count: urlCount,
      domain_rule_count: rules.size,
      live_lease_count: liveLeaseIds.size,
      orphan_count: orphans.length,
      candidate_count: candidates.size,
      elapsed_ms: Date.now() - startedAtMs,
    },
    'frontier loaded',
  );
}

/** Every row of a table, in pages of the largest allowed size. */
async function scanAll<T>(
  table: ReadonlyKeyspaceTable<T>,
  onRow: (value: T) => void,
): Promise<void> {
  let after: Parameters<ReadonlyKeyspaceTable<T>['scan']>[0]['after'];
  for (;;) {
    const page = await table.scan({ after, limit: MAX_SCAN_LIMIT });
    for (const row of page.rows) onRow(row.value);
    if (page.nextAfter === null) return;
    after = page.nextAfter;
  }
}
