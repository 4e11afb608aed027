import { daysInMonth, digitsAt, hasContractTimeSeparators } from './contract-time-form';

describe('the contract time form, field by field', () => {
  it('finds the separators of YYYY-MM-DDTHH:MM:SSZ and nothing longer, shorter or lowercase', () => {
    expect(hasContractTimeSeparators('2026-08-15T07:47:52Z')).toBe(true);
    expect(hasContractTimeSeparators('2026-08-15t07:47:52z')).toBe(false);
    expect(hasContractTimeSeparators('2026-08-15T07:47:52.5Z')).toBe(false);
    expect(hasContractTimeSeparators('2026-08-15 07:47:52Z')).toBe(false);
    expect(hasContractTimeSeparators('')).toBe(false);
  });

  it('reads digits, and answers NaN for anything else among them', () => {
    expect(digitsAt('2026-08-15T07:47:52Z', 0, 4)).toBe(2026);
    expect(digitsAt('2026-08-15T07:47:52Z', 17, 19)).toBe(52);
    expect(digitsAt('20a6', 0, 4)).toBeNaN();
    expect(digitsAt('２0', 0, 2)).toBeNaN();
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
