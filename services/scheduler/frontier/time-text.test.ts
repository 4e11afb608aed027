import { seededRandom } from '../../common/testing/seeded-random';
import { ceilingTimeTextOf, msOfTimeText, timeTextOf } from './time-text';

describe('msOfTimeText', () => {
  it('reads a conventional time to the millisecond Date.parse gives', () => {
    expect(msOfTimeText('2026-08-15T07:47:52Z')).toBe(Date.UTC(2026, 7, 15, 7, 47, 52));
    expect(msOfTimeText(timeTextOf(1_796_515_199_000))).toBe(1_796_515_199_000);
  });

  it('agrees with Date.parse on random and edge texts, valid or not (a malformed time reads as 0)', () => {
    const random = seededRandom(20261205);
    const digits = (count: number) =>
      Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
    const texts = [
      '2026-02-30T00:00:00Z', // rolls over into March, as Date.parse does
      '2026-12-05T24:00:00Z', // hour 24 is midnight of the next day to Date.parse
      '2026-12-05T24:30:00Z',
      '2026-12-05T23:59:60Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '0099-01-01T00:00:00Z', // Date.UTC would read year 99 as 1999
      '0000-01-01T00:00:00Z',
      '2026-1a-01T00:00:00Z',
      '2026-12-05T07:47:52.123Z',
      '2026-12-05 07:47:52Z',
      '2026-12-05T07:47:52+01:00',
      '',
      'not a time',
    ];
    for (let index = 0; index < 5000; index += 1) {
      texts.push(
        `${digits(4)}-${digits(2)}-${digits(2)}T${digits(2)}:${digits(2)}:${digits(2)}Z`,
        ceilingTimeTextOf(random() * 4_000_000_000_000),
      );
    }
    for (const text of texts) {
      const parsed = Date.parse(text);
      expect([text, msOfTimeText(text)]).toEqual([text, Number.isFinite(parsed) ? parsed : 0]);
    }
  });
});
