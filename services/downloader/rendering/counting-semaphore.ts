/** A FIFO counting semaphore: at most `permitCount` holders, waiters served in arrival order. */
export class CountingSemaphore {
  private heldCount = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly permitCount: number) {
    if (!Number.isInteger(permitCount) || permitCount < 1) {
      throw new RangeError(`permitCount must be a positive integer, got ${permitCount}`);
    }
  }

  get availableCount(): number {
    return this.permitCount - this.heldCount;
  }

  get waitingCount(): number {
    return this.waiters.length;
  }

  acquire(): Promise<void> {
    if (this.heldCount < this.permitCount) {
      this.heldCount += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    // A waiter inherits the permit directly, so a newcomer can't overtake it.
    if (next !== undefined) next();
    else this.heldCount = Math.max(0, this.heldCount - 1);
  }
}
