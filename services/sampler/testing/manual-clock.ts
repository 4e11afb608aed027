import type { Clock } from '../sampler-clock';

/** A clock that moves only when a test says so: a claim expires or 30 days pass instantly. */
export class ManualClock implements Clock {
  #nowMs: number;

  constructor(startAt = '2026-08-15T07:00:00Z') {
    this.#nowMs = Date.parse(startAt);
  }

  nowMs(): number {
    return this.#nowMs;
  }

  advanceSeconds(seconds: number): void {
    this.#nowMs += seconds * 1000;
  }

  advanceDays(days: number): void {
    this.advanceSeconds(days * 86_400);
  }
}
