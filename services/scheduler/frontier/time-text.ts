/*
 * Times on the wire and in stored documents are `2026-08-15T07:47:52Z` (CONVENTION.md: seconds,
 * always Z). Internally the frontier computes in Unix milliseconds; these helpers are the only
 * place that converts, and they say which way they round — a "not before" bound is always rounded
 * up so that storing it can only lengthen a wait, never shorten one.
 */

const MS_PER_SECOND = 1000;

/**
 * Recently formatted seconds: the hot paths format the same few seconds many times a second ("now",
 * now plus each domain's interval, now plus the re-visit interval). Bounded: cleared when full.
 */
const formatted = new Map<number, string>();
const MAX_FORMATTED_SECONDS = 256;

function formatWholeSeconds(wholeSecondsMs: number): string {
  let text = formatted.get(wholeSecondsMs);
  if (text === undefined) {
    text = new Date(wholeSecondsMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (formatted.size >= MAX_FORMATTED_SECONDS) formatted.clear();
    formatted.set(wholeSecondsMs, text);
  }
  return text;
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
