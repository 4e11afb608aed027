/** The operator view counts over the last 24 hours (FrontierSummary.window_seconds). */
export const OPERATOR_WINDOW_SECONDS = 86_400;

const BUCKET_MS = 60_000;

/**
 * Counts per label over a sliding window, in one-minute buckets: memory is bounded by the window
 * (1,440 buckets), not by traffic, and reading the totals never touches storage. The window edge
 * is exact to the minute.
 */
export class WindowedCounter<Label extends string> {
  /** Bucket start (ms) → counts per label; insertion order is time order. */
  readonly #buckets = new Map<number, Map<Label, number>>();

  constructor(private readonly windowMs: number = OPERATOR_WINDOW_SECONDS * 1000) {}

  add(label: Label, count: number, atMs: number): void {
    if (count === 0) return;
    const bucketStart = Math.floor(atMs / BUCKET_MS) * BUCKET_MS;
    let bucket = this.#buckets.get(bucketStart);
    if (bucket === undefined) {
      bucket = new Map();
      this.#buckets.set(bucketStart, bucket);
    }
    bucket.set(label, (bucket.get(label) ?? 0) + count);
  }

  /** Totals of the buckets that end inside the window before `nowMs`; older buckets are shed. */
  totals(nowMs: number): Map<Label, number> {
    const oldestKept = nowMs - this.windowMs;
    const totals = new Map<Label, number>();
    for (const [bucketStart, bucket] of this.#buckets) {
      if (bucketStart + BUCKET_MS <= oldestKept) {
        this.#buckets.delete(bucketStart);
        continue;
      }
      for (const [label, count] of bucket) totals.set(label, (totals.get(label) ?? 0) + count);
    }
    return totals;
  }
}
