/*
 * Times on the wire and in stored documents are `2026-08-15T07:47:52Z` (CONVENTION.md: seconds,
 * always Z). Internally the frontier computes in Unix milliseconds; these helpers are the only
 * place that converts, and they say which way they round — a "not before" bound is always rounded
 * up so that storing it can only lengthen a wait, never shorten one.
 */

const MS_PER_SECOND = 1000;

/** The last formatted second: the hot paths format "now" many times per second. */
let lastFormatted = { ms: Number.NaN, text: '' };

function formatWholeSeconds(wholeSecondsMs: number): string {
  if (lastFormatted.ms !== wholeSecondsMs) {
    const text = new Date(wholeSecondsMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastFormatted = { ms: wholeSecondsMs, text };
  }
  return lastFormatted.text;
}

/** Truncates to the second: for "when it happened" times. */
export function timeTextOf(ms: number): string {
  return formatWholeSeconds(Math.floor(ms / MS_PER_SECOND) * MS_PER_SECOND);
}

/** Rounds up to the second: for "not before" bounds (due times, expiries, next dequeue). */
export function ceilingTimeTextOf(ms: number): string {
  return formatWholeSeconds(Math.ceil(ms / MS_PER_SECOND) * MS_PER_SECOND);
}

/** Unix ms of a stored or wire time; NaN never escapes (a malformed time reads as 0). */
export function msOfTimeText(text: string): number {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
}

export function ceilingToSecondMs(ms: number): number {
  return Math.ceil(ms / MS_PER_SECOND) * MS_PER_SECOND;
}
