/*
 * The contract's time form, `2026-08-15T07:47:52Z` (CONVENTION.md: UTC, whole seconds, always Z),
 * read field by field without a regex or an allocation: the scheduler's time texts
 * (frontier/time-text.ts) and the contract's date-time check (contract-runtime/date-time-format.ts)
 * both read it on hot paths, each with its own rules for which fields it accepts.
 */

const ZERO = 0x30;

/** Where the form's separators stand: `YYYY-MM-DDTHH:MM:SSZ`, 20 characters. */
export function hasContractTimeSeparators(text: string): boolean {
  return (
    text.length === 20 &&
    text.charCodeAt(4) === 0x2d && // -
    text.charCodeAt(7) === 0x2d && // -
    text.charCodeAt(10) === 0x54 && // T
    text.charCodeAt(13) === 0x3a && // :
    text.charCodeAt(16) === 0x3a && // :
    text.charCodeAt(19) === 0x5a // Z
  );
}

/** The digits of `text` from `start` to `end` as a number; NaN when any is not a digit. */
export function digitsAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in `month` (1–12) of `year` in the proleptic Gregorian calendar; 0 for no such month. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return DAYS_IN_MONTH[month] ?? 0;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
