import { conventionalTimeMs, digitsAt } from '../time-text';

/*
 * A stored time (CONVENTION.md: `2026-08-15T07:47:52Z`, seconds, always Z) as Unix milliseconds and
 * back, exactly: a resident column keeps the number, and the document read back must carry the very
 * text that was stored. Only texts the way back reproduces are accepted — four-digit years from 1000,
 * real calendar dates, hours to 23 — so the round trip is exact by construction; anything else is
 * NaN, for the caller to refuse. Both ways are done by hand: a resident document is materialized
 * with up to seven times on every lease and report, and `toISOString` plus a replace costs several
 * times more.
 */

const MS_PER_DAY = 86_400_000;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Unix ms of a canonical time text; NaN for any other text. */
export function msOfCanonicalTime(text: string): number {
  // The layout and each field's range as time-text.ts reads stored times; then what Date.UTC
  // would quietly roll over (the 31st of a short month) or write back differently (years < 1000).
  const ms = conventionalTimeMs(text);
  if (ms === undefined) return Number.NaN;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const monthDays = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
  return year >= 1000 && day <= monthDays ? ms : Number.NaN;
}

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

/**
 * The canonical text of whole-second Unix ms from msOfCanonicalTime (days to a civil date after
 * Howard Hinnant's `civil_from_days`).
 */
export function canonicalTimeOf(ms: number): string {
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
