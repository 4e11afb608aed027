/**
 * Serializes every mutation of the frontier inside this process, with two queues: urgent work (a
 * lease: a downloader is idle until it gets one) is handed the lock before ordinary work (reports,
 * seeds, upkeep), which still runs in arrival order.
 *
 * The storage layer offers compare-and-swap per key but no transaction across keys (TiKV has none),
 * and a lease or a report touches dozens of keys plus the in-memory scheduling state. Running the
 * decisions one at a time makes each see a consistent picture — "is this URL still leased by this
 * lease?" cannot change between the check and the write. It is also why the scheduler runs as one
 * process per keyspace (README).
 */
export class MutationLock {
  #isHeld = false;
  readonly #urgent: Array<() => void> = [];
  readonly #ordinary: Array<() => void> = [];

  async run<T>(work: () => Promise<T>, isUrgent = false): Promise<T> {
    if (this.#isHeld) {
      await new Promise<void>((resolve) =>
        (isUrgent ? this.#urgent : this.#ordinary).push(resolve),
      );
    } else {
      this.#isHeld = true;
    }
    try {
      return await work();
    } finally {
      // Hand the lock straight to the next in line; it stays held across the hand-over.
      const next = this.#urgent.shift() ?? this.#ordinary.shift();
      if (next === undefined) this.#isHeld = false;
      else next();
    }
  }

  /** Mutations waiting for the lock (a saturation signal for metrics). */
  get waitingCount(): number {
    return this.#urgent.length + this.#ordinary.length;
  }
}
