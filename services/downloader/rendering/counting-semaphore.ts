/**
 * A FIFO counting semaphore: at most `permitCount` holders, waiters served in arrival order. The
 * permit count can change while in use (the self-sizing page pool): raising it admits waiters at
 * once; lowering it takes effect as holders release.
 */
export class CountingSemaphore {
  private heldCount = 0;
  private permits: number;
  private readonly waiters: Array<() => void> = [];

  constructor(permitCount: number) {
    this.permits = CountingSemaphore.checked(permitCount);
  }

  get permitCount(): number {
    return this.permits;
  }

  /** Free permits now (0 while more are held than the permit count allows after a resize). */
  get availableCount(): number {
    return Math.max(0, this.permits - this.heldCount);
  }

  get holderCount(): number {
    return this.heldCount;
  }

  get waitingCount(): number {
    return this.waiters.length;
  }

  acquire(): Promise<void> {
    // Waiters exist only while every permit is held, so a newcomer can't overtake one.
    if (this.heldCount < this.permits) {
      this.heldCount += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    this.heldCount = Math.max(0, this.heldCount - 1);
    this.admitWaiters();
  }

  resize(permitCount: number): void {
    this.permits = CountingSemaphore.checked(permitCount);
    this.admitWaiters();
  }

  private admitWaiters(): void {
    while (this.heldCount < this.permits && this.waiters.length > 0) {
      this.heldCount += 1;
      (this.waiters.shift() as () => void)();
    }
  }

  private static checked(permitCount: number): number {
    if (!Number.isInteger(permitCount) || permitCount < 1) {
      throw new RangeError(`permitCount must be a positive integer, got ${permitCount}`);
    }
    return permitCount;
  }
}
