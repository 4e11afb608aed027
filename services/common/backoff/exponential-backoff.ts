/**
 * The one place a retry delay is computed: every backoff in the project (HTTP client retries,
 * TiKV region retries, storage compare-and-swap conflicts, a failed URL's requeue, a paused
 * domain's next probe) doubles from a first delay up to a cap, and optionally spreads the result
 * with jitter so many clients that failed together do not retry together.
 */
export interface ExponentialBackoff {
  /** The delay before the first doubling, in the caller's unit (ms or seconds). */
  readonly initial: number;
  /** The delay never exceeds this, in the same unit. */
  readonly cap: number;
}

/** Past this many doublings every schedule is at its cap; bounding it keeps `0 · 2^n` from NaN. */
const MAX_DOUBLING_COUNT = 64;

/** `initial · 2^doublingCount`, at most `cap` (a negative count counts as 0). */
export function backoffCeiling(schedule: ExponentialBackoff, doublingCount: number): number {
  const doublings = Math.min(Math.max(0, doublingCount), MAX_DOUBLING_COUNT);
  return Math.min(schedule.cap, schedule.initial * 2 ** doublings);
}

/**
 * How a delay is drawn below its ceiling:
 * - `full`: uniform in [0, ceiling] — spreads best when many clients lost the same server;
 * - `equal`: half fixed, half random — never retries at once, still out of lockstep;
 * - `none`: the ceiling itself — a deterministic schedule (stored times, tests).
 */
export type Jitter = 'full' | 'equal' | 'none';

export interface BackoffDelayOptions {
  /** How many times the delay has doubled; usually the retry number minus one. */
  doublingCount: number;
  jitter: Jitter;
  /** A number in [0, 1); injectable for tests. */
  random?: () => number;
}

/** The delay before the next attempt: the ceiling for `doublingCount`, drawn with `jitter`. */
export function backoffDelay(schedule: ExponentialBackoff, options: BackoffDelayOptions): number {
  const ceiling = backoffCeiling(schedule, options.doublingCount);
  const random = options.random ?? Math.random;
  switch (options.jitter) {
    case 'full':
      return random() * ceiling;
    case 'equal':
      return ceiling / 2 + random() * (ceiling / 2);
    case 'none':
      return ceiling;
  }
}
