import type { PrimaryKey } from '../../common/storage/primary-key';
import type { PlacedChange, UrlTaskChangeListener } from './frontier-store';
import { msOfTimeText } from './time-text';

/**
 * Per shard bucket of url_revisit_index, a time before which nothing in it is due: a lower bound,
 * lowered whenever an entry is staged, reset by the promoter after it reads the bucket. It lets the
 * promoter read only buckets that may hold due entries, and tells parked lease calls when the next
 * re-visit falls due.
 */
export class RevisitSchedule implements UrlTaskChangeListener {
  readonly #nextDueMsByBucket = new Map<string, number>();

  onUrlTaskChanged({ after }: PlacedChange): void {
    if (after?.indexName === 'revisit') this.#lowerTo(after.bucket, msOfTimeText(after.dueAt));
  }

  /** `key` (a url_revisit_index key) exists or is about to. */
  lower(key: PrimaryKey): void {
    this.#lowerTo(key.parts[0], revisitDueMsOf(key));
  }

  #lowerTo(bucket: string, dueMs: number): void {
    const known = this.#nextDueMsByBucket.get(bucket);
    if (known === undefined || dueMs < known) this.#nextDueMsByBucket.set(bucket, dueMs);
  }

  /** The promoter read `bucket`: forget what it knew (the keys it found lower it again). */
  forget(bucket: string): void {
    this.#nextDueMsByBucket.delete(bucket);
  }

  /** Buckets that may hold entries due by `nowMs`. */
  bucketsDueBy(nowMs: number): string[] {
    const buckets: string[] = [];
    for (const [bucket, dueMs] of this.#nextDueMsByBucket) {
      if (dueMs <= nowMs) buckets.push(bucket);
    }
    return buckets;
  }

  /** The earliest time anything may fall due (Infinity: nothing waits). */
  nextDueAtMs(): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const dueMs of this.#nextDueMsByBucket.values()) earliest = Math.min(earliest, dueMs);
    return earliest;
  }
}

/** url_revisit_index keys are {shard_bucket}/{due_at}/{url_hash}. */
export function revisitDueMsOf(key: PrimaryKey): number {
  return msOfTimeText(key.parts[1]);
}
