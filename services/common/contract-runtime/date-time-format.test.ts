import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { addContractDateTimeFormat, contractFormDateTimeVerdict } from './date-time-format';
import { OTHER_TIME_FORMS } from '../contract-time/testing/other-time-forms';

const full = (addFormats.get('date-time', 'full') as { validate: (text: string) => boolean })
  .validate;

/** A text of the contract's form with the given parts, zero-padded. */
function timeText(parts: number[]): string {
  const [year, month, day, hours, minutes, seconds] = parts.map((part, index) =>
    String(part).padStart(index === 0 ? 4 : 2, '0'),
  );
  return `${year}-${month}-${day}T${hours}:${minutes}:${seconds}Z`;
}

describe('contractFormDateTimeVerdict', () => {
  it("gives ajv-formats' verdict on every day of leap and common years, and at every edge of a day", () => {
    for (const year of [1900, 2000, 2023, 2024, 2100, 2400, 9999, 0]) {
      for (let month = 0; month <= 13; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          for (const [hours, minutes, seconds] of [
            [0, 0, 0],
            [23, 59, 59],
            [23, 59, 60],
            [23, 58, 60],
            [22, 59, 60],
            [23, 59, 61],
            [24, 0, 0],
            [12, 60, 0],
            [12, 0, 99],
          ]) {
            const text = timeText([year, month, day, hours, minutes, seconds]);
            expect([text, contractFormDateTimeVerdict(text)]).toEqual([text, full(text)]);
          }
        }
      }
    }
  });

  it("gives ajv-formats' verdict on random digits in the contract's form", () => {
    for (let round = 0; round < 20_000; round += 1) {
      const text = '0000-00-00T00:00:00Z'.replace(/0/g, () =>
        String(Math.floor(Math.random() * 10)),
      );
      expect([text, contractFormDateTimeVerdict(text)]).toEqual([text, full(text)]);
    }
  });

  it('leaves every other form to the full check', () => {
    for (const text of OTHER_TIME_FORMS) {
      expect(contractFormDateTimeVerdict(text)).toBeUndefined();
    }
  });

  it('is what a contract schema with format date-time checks, other forms included', () => {
    const ajv = new Ajv();
    addFormats(ajv);
    addContractDateTimeFormat(ajv);
    const validate = ajv.compile({ type: 'string', format: 'date-time' });
    expect(validate('2024-02-29T23:59:60Z')).toBe(true);
    expect(validate('2023-02-29T00:00:00Z')).toBe(false);
    expect(validate('2026-08-15T07:47:52.250+09:00')).toBe(true);
    expect(validate('2026-08-15T07:47:52')).toBe(false);
  });
});
