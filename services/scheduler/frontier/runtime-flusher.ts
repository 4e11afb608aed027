import type { DomainBook } from './domain-book';
import type { DomainRuntimeDocument } from './frontier-documents';
import type { FrontierTables } from './frontier-tables';
import { ceilingTimeTextOf, timeTextOf } from './time-text';
import type { WriteBatch } from './write-batch';

/**
 * Writes the hot `domain_runtime` rows (in-flight count, next allowed dequeue) behind memory, every
 * write interval, for the domains that changed. Each row is a random-key write (a dirty page and
 * its share of an fsync), so coalescing matters at thousands of URLs a second. CONVENTION.md lets
 * `_runtime` tables be lost and rebuilt, and the start-up rebuild does not trust them for safety:
 * in-flight counts come from url_task, and every domain waits one min_interval_ms after a start, so
 * a lost second of dequeue times can never shorten an interval. Callers hold the mutation lock.
 */
export class RuntimeFlusher {
  #lastWrittenAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly tables: FrontierTables,
    private readonly book: DomainBook,
    /** Rows written at most this often: a domain's changes in between coalesce into one row. */
    private readonly writeIntervalMs: number,
  ) {}

  /** Stages the changed rows if the write interval has passed (`isForced`: at shutdown). */
  stage(batch: WriteBatch, nowMs: number, isForced = false): void {
    if (!isForced && nowMs - this.#lastWrittenAtMs < this.writeIntervalMs) return;
    this.#lastWrittenAtMs = nowMs;
    const updatedAt = timeTextOf(nowMs);
    const runtimeRows = this.book.takeRuntimeDirty().map((schedule): DomainRuntimeDocument => ({
      domain: schedule.domain,
      in_flight_count: schedule.inFlightCount,
      // Rounded up: a stored "not before" may only lengthen the wait.
      next_dequeue_at:
        schedule.nextDequeueAtMs > 0 ? ceilingTimeTextOf(schedule.nextDequeueAtMs) : null,
      last_dequeue_at:
        schedule.lastDequeueAtMs === null ? null : timeTextOf(schedule.lastDequeueAtMs),
      updated_at: updatedAt,
    }));
    for (const row of runtimeRows)
      batch.put(this.tables.domainRuntime, row.domain, row, 'documents');
  }
}
