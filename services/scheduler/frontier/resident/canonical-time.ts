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
const ZERO = 0x30;

function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let index = start; index < start + count; index += 1) {
    const digit = text.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
}

/** Unix ms of a canonical time text; NaN for any other text. */
export function msOfCanonicalTime(text: string): number {
  if (
    text.length !== 20 ||
    text.charCodeAt(4) !== 0x2d || // -
    text.charCodeAt(7) !== 0x2d ||
    text.charCodeAt(10) !== 0x54 || // T
    text.charCodeAt(13) !== 0x3a || // :
    text.charCodeAt(16) !== 0x3a ||
    text.charCodeAt(19) !== 0x5a // Z
  ) {
    return Number.NaN;
  }
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  // NaN fails every comparison, so a non-digit anywhere ends here too.
  if (
    !(year >= 1000) ||
    !(month >= 1 && month <= 12) ||
    !(day >= 1 && day <= daysInMonth(year, month)) ||
    !(hour <= 23) ||
    !(minute <= 59) ||
    !(second <= 59)
  ) {
    return Number.NaN;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second);
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
