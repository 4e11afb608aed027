import { exactMsOfTimeText, timeTextOf } from './time-text';

const isoTextOf = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('exact times (timeTextOf and exactMsOfTimeText)', () => {
  it('reads and writes every kind of date exactly as Date does', () => {
    // Whole seconds from 1000 to 9999, at random, plus the edges of leap days and year turns.
    const samples = [
      Date.UTC(1000, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59),
      Date.UTC(2000, 1, 29, 12),
      Date.UTC(2024, 1, 29),
      Date.UTC(2100, 2, 1),
      Date.UTC(1969, 11, 31, 23, 59, 59),
      Date.UTC(1970, 0, 1),
      Date.UTC(2026, 7, 15, 7, 47, 52),
    ];
    const low = Date.UTC(1000, 0, 1);
    const high = Date.UTC(9999, 11, 31, 23, 59, 59);
    for (let index = 0; index < 20_000; index += 1) {
      samples.push(Math.floor((low + Math.random() * (high - low)) / 1000) * 1000);
    }
    const mismatches = samples.filter((ms) => {
      const text = timeTextOf(ms);
      return text !== isoTextOf(ms) || exactMsOfTimeText(text) !== ms;
    });
    expect(mismatches).toEqual([]);
  });

  it.each([
    ['a date that does not exist', '2026-02-29T00:00:00Z'],
    ['a century that is not a leap year', '1900-02-29T00:00:00Z'],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['day 0', '2026-08-00T00:00:00Z'],
    ['hour 24', '2026-08-15T24:00:00Z'],
    ['second 60', '2026-08-15T07:47:60Z'],
    ['milliseconds', '2026-08-15T07:47:52.000Z'],
    ['an offset instead of Z', '2026-08-15T07:47:52+00:00'],
    ['a lowercase z', '2026-08-15T07:47:52z'],
    ['a year before 1000', '0999-08-15T07:47:52Z'],
    ['a sign', '+026-08-15T07:47:52Z'],
    ['a space for T', '2026-08-15 07:47:52Z'],
  ])('refuses %s', (_, text) => {
    expect(exactMsOfTimeText(text)).toBeNaN();
  });
});
