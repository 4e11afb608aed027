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
  /** Rows whose only change is their dequeue times are written at most this often. */
  writeIntervalMs: number;
}

/**
 * Writes `domain_runtime` rows. A domain whose stored URLs changed gets its row in the very batch
 * of that change (finishBatch, run after every decision), so on a backend with atomic batches the
 * counts on disk always match url_task and start-up can trust them. A domain whose only change is
 * its dequeue times (every lease moves them) is written behind memory, coalesced per interval:
 * CONVENTION.md lets `_runtime` rows lag, and start-up does not trust them for safety — in-flight
 * counts come from the live leases, and every domain waits one min_interval_ms after a start, so a
 * lost second of dequeue times can never shorten an interval.
 */
export class DomainRuntimeRows {
  #lastWriteBehindAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly dependencies: DomainRuntimeRowsDependencies) {}

  /** The rows of domains whose stored URLs changed in this batch. */
  finishBatch(batch: WriteBatch): void {
    const changed = this.dependencies.book.takeStoredChanged();
    if (changed.length === 0) return;
    this.#stage(batch, changed, this.dependencies.clock.nowMs());
  }

  /** The rows of domains whose dequeue times moved, if the interval passed (`isForced`: at stop). */
  stageWriteBehind(
    batch: WriteBatch,
    nowMs: number,
    { isForced = false }: { isForced?: boolean } = {},
  ): void {
    if (!isForced && nowMs - this.#lastWriteBehindAtMs < this.dependencies.writeIntervalMs) return;
    this.#lastWriteBehindAtMs = nowMs;
    this.#stage(batch, this.dependencies.book.takeRuntimeChanged(), nowMs);
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
