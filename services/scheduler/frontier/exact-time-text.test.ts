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
    // Read before and after it is formatted: a text timeTextOf made is remembered, so the second
    // read is a lookup and the first (almost always a second not formatted yet) a parse.
    const mismatches = samples.filter((ms) => {
      const isoText = isoTextOf(ms);
      const parsedMs = exactMsOfTimeText(isoText);
      const text = timeTextOf(ms);
      return parsedMs !== ms || text !== isoText || exactMsOfTimeText(text) !== ms;
    });
    expect(mismatches).toEqual([]);
  });

  it('reads a remembered text and a copy of it alike, and forgets neither into a wrong answer', () => {
    const ms = Date.UTC(2026, 7, 15, 7, 47, 52);
    const text = timeTextOf(ms);
    const copy = ['2026-08-15', 'T07:47:52Z'].join('');
    expect(exactMsOfTimeText(text)).toBe(ms);
    expect(exactMsOfTimeText(copy)).toBe(ms);
    // Past the bound of remembered seconds the first one is parsed again, with the same answer.
    for (let second = 1; second <= 600; second += 1) timeTextOf(ms + second * 1000);
    expect(exactMsOfTimeText(copy)).toBe(ms);
    expect(exactMsOfTimeText(timeTextOf(ms + 600_000))).toBe(ms + 600_000);
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
