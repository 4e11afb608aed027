/*
 * Times on the wire and in stored documents are `2026-08-15T07:47:52Z` (CONVENTION.md: seconds,
 * always Z). Internally the frontier computes in Unix milliseconds; these helpers are the only
 * place that converts, and they say which way they round — a "not before" bound is always rounded
 * up so that storing it can only lengthen a wait, never shorten one.
 */

import {
  contractTimeFieldsOf,
  daysInMonth,
  type ContractTimeFields,
} from '../../common/contract-time/contract-time-form';

const MS_PER_SECOND = 1000;

/**
 * Recently formatted seconds: the hot paths format the same few seconds many times a second ("now",
 * now plus each domain's interval, now plus the re-visit interval). Bounded: cleared when full.
 */
const formatted = new Map<number, string>();
/**
 * The same seconds the other way, for the texts formatted by hand (years 1000–9999, each exactly
 * what timeTextOf gives back): the documents the frontier writes carry those very strings, and the
 * resident url table reads up to eight times back from each (exactMsOfTimeText), the lease book
 * its expiries (msOfTimeText) — a lookup of a string whose hash it already holds instead of a
 * parse. Cleared with `formatted`.
 */
const parsed = new Map<string, number>();
const MS_AT_YEAR_1000 = Date.UTC(1000, 0, 1);
const MS_AT_YEAR_10000 = Date.UTC(10000, 0, 1);
const MAX_FORMATTED_SECONDS = 256;

function formatWholeSeconds(wholeSecondsMs: number): string {
  let text = formatted.get(wholeSecondsMs);
  if (text === undefined) {
    if (formatted.size >= MAX_FORMATTED_SECONDS) {
      formatted.clear();
      parsed.clear();
    }
    if (wholeSecondsMs >= MS_AT_YEAR_1000 && wholeSecondsMs < MS_AT_YEAR_10000) {
      text = civilTimeTextOf(wholeSecondsMs);
      parsed.set(text, wholeSecondsMs);
    } else {
      text = new Date(wholeSecondsMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
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
  const ms = parsed.get(text) ?? conventionalTimeMs(text) ?? Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
}

/**
 * `YYYY-MM-DDTHH:MM:SSZ` read field by field: every due-index key a lease takes carries one, and
 * Date.parse takes twice as long (~190 vs ~95 ns). Only fields Date.UTC reads as Date.parse does
 * take this way (years from 100 — Date.UTC reads 0–99 as 1900–1999 — and hours up to 23); anything
 * else, another format or hour 24, is left to Date.parse, so both ways give the same answer.
 */
function conventionalTimeMs(text: string): number | undefined {
  const fields = contractTimeFieldsOf(text);
  return fields === undefined ? undefined : msOfFields(fields);
}

/** conventionalTimeMs of a time's fields as read. */
function msOfFields({
  year,
  month,
  day,
  hour,
  minute,
  second,
}: Readonly<ContractTimeFields>): number | undefined {
  if (
    !(year >= 100) ||
    !(month >= 1 && month <= 12) ||
    !(day >= 1 && day <= 31) ||
    !(hour <= 23) ||
    !(minute <= 59) ||
    !(second <= 59)
  ) {
    return undefined;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

export function ceilingToSecondMs(ms: number): number {
  return Math.ceil(ms / MS_PER_SECOND) * MS_PER_SECOND;
}

const MS_PER_DAY = 86_400_000;

/**
 * Unix ms of a stored time only when timeTextOf gives the very same text back (four-digit years from
 * 1000, real calendar dates); NaN otherwise — for a store that keeps the number and must return the
 * text exactly (the resident url table).
 */
export function exactMsOfTimeText(text: string): number {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  // The layout and each field's range as time-text.ts reads stored times; then what Date.UTC
  // would quietly roll over (the 31st of a short month) or write back differently (years < 1000).
  const fields = contractTimeFieldsOf(text);
  const ms = fields === undefined ? undefined : msOfFields(fields);
  if (fields === undefined || ms === undefined) return Number.NaN;
  return fields.year >= 1000 && fields.day <= daysInMonth(fields.year, fields.month)
    ? ms
    : Number.NaN;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/**
 * The text of whole-second Unix ms in years 1000–9999, by hand (days to a civil date after Howard
 * Hinnant's `civil_from_days`): `toISOString` plus a replace costs several times more, and the
 * resident store materializes up to seven times per document read.
 */
function civilTimeTextOf(ms: number): string {
  const days = Math.floor(ms / MS_PER_DAY);
  const secondOfDay = (ms - days * MS_PER_DAY) / 1000;
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(secondOfDay / 3600);
  const minute = Math.floor((secondOfDay % 3600) / 60);
  const second = secondOfDay % 60;
  return `${year}-${twoDigits(month)}-${twoDigits(day)}T${twoDigits(hour)}:${twoDigits(minute)}:${twoDigits(second)}Z`;
}
