import type { Clock } from './clock';
import type { DomainBook } from './domain-book';
import type { DomainSchedule } from './domain-schedule';
import type { DomainRuntimeDocument } from './frontier-documents';
import type { FrontierTables } from './frontier-tables';
import { ceilingTimeTextOf, timeTextOf } from './time-text';
import type { WriteBatch } from './write-batch';

export interface DomainRuntimeRowsDependencies {
  tables: FrontierTables;
  book: DomainBook;
  clock: Clock;
  /** Changed rows are written at most this often. */
  writeIntervalMs: number;
  /** Rows written behind at most per interval (all that are left at a clean stop). */
  writeBehindRowLimit?: number;
}

/**
 * A few milliseconds of the main thread per interval. Under load nearly every domain changes
 * within an interval (100,000 of them at bench:frontier's 1M stage): written whole, each interval
 * would hold the leases behind it for a burst of encoding and journalling, and cost what writing
 * the rows with their changes did. The rest waits for a quieter interval or the clean stop.
 */
export const WRITE_BEHIND_ROW_LIMIT = 2_000;

/**
 * Writes `domain_runtime` rows behind memory: the rows of the domains whose counts or dequeue
 * times changed, coalesced per interval and a slice at a time, and all that are left at a clean
 * stop. CONVENTION.md lets `_runtime` rows lag: start-up trusts their counts only after a clean
 * stop and otherwise recounts from url_task (frontier-startup.ts), and it never trusts them for
 * safety — in-flight counts come from the live leases, and every domain waits one min_interval_ms
 * after a start, so lost dequeue times can never shorten an interval.
 *
 * Until the forty-fourth session a domain whose stored URLs changed had its row in the very batch
 * of the change, so that start-up could trust the counts after a crash too: ~50 more writes per
 * report of 50 results, each encoded, journalled and checkpointed — a tenth of the main thread's
 * CPU per URL and of the 4-worker throughput at 1M URLs (docs/frontier-performance.md). A start
 * after a crash now recounts instead (~0.4–0.6 s more at 1M URLs on the resident store).
 */
export class DomainRuntimeRows {
  #lastWriteBehindAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly dependencies: DomainRuntimeRowsDependencies) {}

  /** The rows of domains that changed, if the interval passed (`isForced`: at stop). */
  stageWriteBehind(
    batch: WriteBatch,
    nowMs: number,
    { isForced = false }: { isForced?: boolean } = {},
  ): void {
    if (!isForced && nowMs - this.#lastWriteBehindAtMs < this.dependencies.writeIntervalMs) return;
    this.#lastWriteBehindAtMs = nowMs;
    const limit = isForced
      ? Number.POSITIVE_INFINITY
      : (this.dependencies.writeBehindRowLimit ?? WRITE_BEHIND_ROW_LIMIT);
    this.#stage(batch, this.dependencies.book.takeRuntimeChanged(limit), nowMs);
  }

  #stage(batch: WriteBatch, schedules: DomainSchedule[], nowMs: number): void {
    const updatedAt = timeTextOf(nowMs);
    for (const schedule of schedules) {
      batch.put(
        this.dependencies.tables.domainRuntime,
        schedule.domain,
        rowOf(schedule, updatedAt),
        'documents',
      );
    }
  }
}

export function rowOf(schedule: DomainSchedule, updatedAt: string): DomainRuntimeDocument {
  const { stored, head } = schedule;
  return {
    domain: schedule.domain,
    in_flight_count: schedule.inFlightCount,
    // Rounded up: a stored "not before" may only lengthen the wait.
    next_dequeue_at:
      schedule.nextDequeueAtMs > 0 ? ceilingTimeTextOf(schedule.nextDequeueAtMs) : null,
    last_dequeue_at:
      schedule.lastDequeueAtMs === null ? null : timeTextOf(schedule.lastDequeueAtMs),
    queued_url_count: stored.queued,
    done_url_count: stored.done,
    failed_url_count: stored.failed,
    waiting_url_count: stored.waitingForRule,
    dropped_url_count: stored.dropped,
    due_url_count: stored.due,
    // Rounded down: a lower bound of the head stays a lower bound.
    head_priority_rank: head === null ? null : head.rank,
    head_due_at: head === null ? null : timeTextOf(head.dueAtMs),
    updated_at: updatedAt,
  };
}
