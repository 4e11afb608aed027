import { contractTimeFieldsOf, daysInMonth } from './contract-time-form';
import { OTHER_TIME_FORMS } from './testing/other-time-forms';

describe('the contract time form, field by field', () => {
  it('reads the six fields of YYYY-MM-DDTHH:MM:SSZ', () => {
    expect({ ...contractTimeFieldsOf('2026-08-15T07:47:52Z') }).toEqual({
      year: 2026,
      month: 8,
      day: 15,
      hour: 7,
      minute: 47,
      second: 52,
    });
    // Fields as written, for the caller's own rules to judge.
    expect(contractTimeFieldsOf('0000-13-99T24:60:60Z')?.month).toBe(13);
  });

  it('answers nothing for another form: lowercase, fractions, offsets, a space, non-digits', () => {
    for (const text of OTHER_TIME_FORMS) {
      expect(contractTimeFieldsOf(text)).toBeUndefined();
    }
  });

  it('knows the days of each month, leap years included, and none of a month that is not one', () => {
    expect(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((month) => daysInMonth(2023, month)),
    ).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect([2024, 2000, 1900, 2100, 0].map((year) => daysInMonth(year, 2))).toEqual([
      29, 29, 28, 28, 29,
    ]);
    expect(daysInMonth(2024, 0)).toBe(0);
    expect(daysInMonth(2024, 13)).toBe(0);
  });
});
