/** A point in time that a sequence of steps shares: each step gets what is left. */
export class Deadline {
  private readonly endsAtMs: number;

  constructor(budgetMs: number, startedAtMs = Date.now()) {
    this.endsAtMs = startedAtMs + budgetMs;
  }

  /** Milliseconds left, at least 1 (puppeteer treats a 0 timeout as "no timeout"). */
  remainingMs(): number {
    return Math.max(1, this.endsAtMs - Date.now());
  }

  hasPassed(): boolean {
    return Date.now() >= this.endsAtMs;
  }
}
