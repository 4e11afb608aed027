/*
 * The contract's time form, `2026-08-15T07:47:52Z` (CONVENTION.md: UTC, whole seconds, always Z),
 * read field by field without a regex or an allocation: the scheduler's time texts
 * (frontier/time-text.ts) and the contract's date-time check (contract-runtime/date-time-format.ts)
 * both read it on hot paths, each with its own rules for which fields it accepts.
 */

const ZERO = 0x30;

/** A time's fields as written (month 1–12), not yet checked against any calendar or clock. */
export interface ContractTimeFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The one object contractTimeFieldsOf fills: its callers read it at once, so none is allocated. */
const FIELDS: ContractTimeFields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };

/**
 * The fields of a text in the form (`YYYY-MM-DDTHH:MM:SSZ`: 20 characters, those separators,
 * digits between them); undefined for any other text. The answer is valid until the next call.
 */
export function contractTimeFieldsOf(text: string): Readonly<ContractTimeFields> | undefined {
  if (
    text.length !== 20 ||
    text.charCodeAt(4) !== 0x2d || // -
    text.charCodeAt(7) !== 0x2d || // -
    text.charCodeAt(10) !== 0x54 || // T
    text.charCodeAt(13) !== 0x3a || // :
    text.charCodeAt(16) !== 0x3a || // :
    text.charCodeAt(19) !== 0x5a // Z
  ) {
    return undefined;
  }
  FIELDS.year = digitsAt(text, 0, 4);
  FIELDS.month = digitsAt(text, 5, 7);
  FIELDS.day = digitsAt(text, 8, 10);
  FIELDS.hour = digitsAt(text, 11, 13);
  FIELDS.minute = digitsAt(text, 14, 16);
  FIELDS.second = digitsAt(text, 17, 19);
  const { year, month, day, hour, minute, second } = FIELDS;
  // A non-digit anywhere reads as NaN, which every sum carries.
  return Number.isNaN(year + month + day + hour + minute + second) ? undefined : FIELDS;
}

/** The digits of `text` from `start` to `end` as a number; NaN when any is not a digit. */
function digitsAt(text: string, start: number, end: number): number {
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
