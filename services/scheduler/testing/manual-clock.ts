import type { Clock } from '../frontier/clock';

/** A clock that moves only when told: lets a test expire a lease or pass an interval instantly. */
export class ManualClock implements Clock {
  constructor(private currentMs: number = Date.UTC(2026, 7, 15, 7, 0, 0)) {}

  nowMs(): number {
    return this.currentMs;
  }

  advance(ms: number): void {
    this.currentMs += ms;
  }
}
