import { performance } from 'node:perf_hooks';

export interface CheckpointPacing {
  /** A checkpoint's rows should all be handed over within this long… */
  targetMs: number;
  /** …in slices of at least this many rows per event-loop turn… */
  minRowsPerTurn: number;
  /** …and at most this many (also the slice once the target has passed). */
  maxRowsPerTurn: number;
}

/**
 * Measured at 1M URLs (bench:frontier's frontier and load; alternating runs of 1,200 leases per
 * worker count, six pairs against the fixed slices before — 500 rows, at most 40 turns): lease
 * p99 at 4 workers ahead in four pairs (e.g. 46.6 / 55.7 / 44.9 vs 50.6 / 104.8 / 49.7 ms), at 16
 * workers in four (e.g. 151 / 126 / 113 vs 315 / 327 / 211 ms); throughput within the runs'
 * spread. A fixed 100 rows a turn helped at 4 workers as much but fell behind the journal at 16,
 * whose turns are few and long (back-pressure): hence slices fitted to the turns.
 */
export const DEFAULT_CHECKPOINT_PACING: CheckpointPacing = {
  targetMs: 500,
  minRowsPerTurn: 100,
  maxRowsPerTurn: 2_000,
};

/**
 * Sizes the slices a checkpoint hands to LMDB, one per event-loop turn. Each slice holds the turn —
 * and the requests waiting behind it — for as long as its rows take (a put costs the main thread a
 * few microseconds), so slices should be small; but a busy
 * process has few turns a second, and slices too small for them leave the checkpoint behind the
 * journal until acknowledgements wait for it (back-pressure). So the pacer spreads what is left
 * over the turns it expects before the target time, judging their length by the turns so far:
 * many short turns (a lightly loaded process) get small slices, few long ones larger slices, and a
 * checkpoint past its target hands over the largest slice every turn until it is done.
 */
export class CheckpointPacer {
  readonly #startedAtMs: number;
  #turnCount = 0;

  constructor(
    private readonly pacing: CheckpointPacing,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.#startedAtMs = nowMs();
  }

  /** The size of the next slice, with `remainingCount` rows still to hand over. */
  nextSliceSize(remainingCount: number): number {
    const { targetMs, minRowsPerTurn, maxRowsPerTurn } = this.pacing;
    const elapsedMs = this.nowMs() - this.#startedAtMs;
    let size: number;
    if (this.#turnCount === 0) {
      // No turn measured yet: start small.
      size = minRowsPerTurn;
    } else if (elapsedMs >= targetMs) {
      size = maxRowsPerTurn;
    } else {
      const turnMs = elapsedMs / this.#turnCount;
      const turnsLeft = turnMs > 0 ? Math.floor((targetMs - elapsedMs) / turnMs) : remainingCount;
      size = Math.ceil(remainingCount / Math.max(1, turnsLeft));
    }
    this.#turnCount += 1;
    return Math.min(remainingCount, Math.max(minRowsPerTurn, Math.min(maxRowsPerTurn, size)));
  }
}
