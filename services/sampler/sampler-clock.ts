/*
 * Where the sampler reads the time. Every decision that depends on "now" (claim expiry, backoff
 * due times, the hint window, verified_at) goes through one clock, so tests can let a claim
 * expire or a 30-day backoff pass by moving the clock instead of sleeping.
 */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

const SECOND_MS = 1000;

/** `2026-08-15T07:47:52Z` (CONVENTION.md), truncated to the second: "when it happened". */
export function timeTextOf(ms: number): string {
  return new Date(Math.floor(ms / SECOND_MS) * SECOND_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Rounded up to the second: for "not before" bounds (due times, expiries) — never earlier. */
export function ceilingTimeTextOf(ms: number): string {
  return timeTextOf(Math.ceil(ms / SECOND_MS) * SECOND_MS);
}

/** Unix ms of a stored or wire time (a malformed time reads as 0, i.e. long past). */
export function msOfTimeText(text: string): number {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
}
