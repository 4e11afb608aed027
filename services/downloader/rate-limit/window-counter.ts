import { ENTRY_NAMES, type EntryName } from './rate-limit-vocabulary';

/** The operator view's window: the last 24 hours (CONTRACT.md `window_seconds` 86400). */
export const WINDOW_MS = 86_400_000;
/**
 * Counts are kept in coarse buckets, never as rows per request: 10 minutes each, so the window is
 * exact to within one bucket and a busy domain costs at most 145 small buckets.
 */
export const BUCKET_MS = 600_000;

export interface WindowBucket {
  readonly startedAtMs: number;
  requestCount: number;
  overLimitCounts: Record<EntryName, number>;
}

export interface WindowTotals {
  readonly requestCount: number;
  readonly overLimitCounts: Readonly<Record<EntryName, number>>;
}

function emptyOverLimitCounts(): Record<EntryName, number> {
  return { lease_loop: 0, render_endpoint: 0, probe_endpoint: 0 };
}

/** Requests sent and requests held back per entry, over a sliding 24 h window. */
export class WindowCounter {
  /** Oldest first. */
  private readonly buckets: WindowBucket[] = [];

  constructor(initial: readonly WindowBucket[] = []) {
    for (const bucket of initial) this.merge(bucket);
  }

  addRequest(nowMs: number): void {
    this.bucketAt(nowMs).requestCount += 1;
  }

  addOverLimit(entryName: EntryName, nowMs: number): void {
    this.bucketAt(nowMs).overLimitCounts[entryName] += 1;
  }

  /** Adds another counter's bucket (rebuilding totals from stored rows). */
  merge(bucket: WindowBucket): void {
    const target = this.bucketAt(bucket.startedAtMs);
    target.requestCount += bucket.requestCount;
    for (const entryName of ENTRY_NAMES) {
      target.overLimitCounts[entryName] += bucket.overLimitCounts[entryName];
    }
  }

  totals(nowMs: number): WindowTotals {
    this.prune(nowMs);
    const overLimitCounts = emptyOverLimitCounts();
    let requestCount = 0;
    for (const bucket of this.buckets) {
      requestCount += bucket.requestCount;
      for (const entryName of ENTRY_NAMES) {
        overLimitCounts[entryName] += bucket.overLimitCounts[entryName];
      }
    }
    return { requestCount, overLimitCounts };
  }

  /** The live buckets (for storage). */
  liveBuckets(nowMs: number): readonly WindowBucket[] {
    this.prune(nowMs);
    return this.buckets;
  }

  isEmpty(nowMs: number): boolean {
    return this.liveBuckets(nowMs).length === 0;
  }

  private prune(nowMs: number): void {
    const oldestLiveStartMs = bucketStart(nowMs - WINDOW_MS) + BUCKET_MS;
    while (this.buckets.length > 0 && this.buckets[0].startedAtMs < oldestLiveStartMs) {
      this.buckets.shift();
    }
  }

  private bucketAt(atMs: number): WindowBucket {
    const startedAtMs = bucketStart(atMs);
    const last = this.buckets[this.buckets.length - 1];
    if (last !== undefined && last.startedAtMs === startedAtMs) return last;
    // Out-of-order starts only happen while merging stored buckets: keep the list sorted.
    const index = this.buckets.findIndex((bucket) => bucket.startedAtMs >= startedAtMs);
    if (index >= 0 && this.buckets[index].startedAtMs === startedAtMs) return this.buckets[index];
    const bucket: WindowBucket = {
      startedAtMs,
      requestCount: 0,
      overLimitCounts: emptyOverLimitCounts(),
    };
    this.buckets.splice(index < 0 ? this.buckets.length : index, 0, bucket);
    return bucket;
  }
}

function bucketStart(atMs: number): number {
  return Math.floor(atMs / BUCKET_MS) * BUCKET_MS;
}
