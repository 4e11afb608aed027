/**
 * Where the frontier reads the time. Every decision that depends on "now" (due times, lease
 * expiry, dequeue intervals, probe schedules) goes through one clock, so tests can expire a lease
 * or let an interval pass by moving the clock instead of sleeping.
 */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };
