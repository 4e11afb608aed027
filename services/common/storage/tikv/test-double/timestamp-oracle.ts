/** PD's bound on the logical part of a timestamp (18 bits). */
export const MAX_LOGICAL = 1 << 18;

export interface AllocatedTimestamps {
  physical: number;
  /** The logical part of the *last* timestamp allocated; the first is `logical - count + 1`. */
  logical: number;
}

/**
 * PD's timestamp oracle, reduced to its guarantee: every allocation is strictly greater than the
 * one before, whichever PD member answers. Physical time follows the injected clock (milliseconds)
 * and never goes back; when a millisecond's logical space is used up, the physical part steps
 * forward instead of waiting for the clock (PD waits; the result is the same order).
 */
export class TimestampOracle {
  private physical = 0;
  private logical = 0;

  constructor(private readonly nowMs: () => number) {}

  allocate(count: number): AllocatedTimestamps {
    if (!Number.isInteger(count) || count < 1 || count >= MAX_LOGICAL) {
      throw new RangeError(`tso count should be positive and below ${MAX_LOGICAL}, got ${count}`);
    }
    const now = Math.floor(this.nowMs());
    if (now > this.physical) {
      this.physical = now;
      this.logical = 0;
    }
    if (this.logical + count >= MAX_LOGICAL) {
      this.physical += 1;
      this.logical = 0;
    }
    this.logical += count;
    return { physical: this.physical, logical: this.logical };
  }
}
