import {
  contractTimeToHttpDate,
  formatContractTime,
  httpDateToContractTime,
} from './contract-time';

describe('contract time', () => {
  test('formats to seconds with Z', () => {
    expect(formatContractTime(new Date(Date.UTC(2026, 7, 15, 7, 47, 52, 987)))).toBe(
      '2026-08-15T07:47:52Z',
    );
  });

  test('converts Last-Modified to contract time and back', () => {
    expect(httpDateToContractTime('Sat, 15 Aug 2026 07:47:52 GMT')).toBe('2026-08-15T07:47:52Z');
    expect(contractTimeToHttpDate('2026-08-15T07:47:52Z')).toBe('Sat, 15 Aug 2026 07:47:52 GMT');
  });

  test('answers null / undefined for missing or garbage input', () => {
    expect(httpDateToContractTime(undefined)).toBeNull();
    expect(httpDateToContractTime('not a date')).toBeNull();
    expect(contractTimeToHttpDate(null)).toBeUndefined();
    expect(contractTimeToHttpDate('garbage')).toBeUndefined();
  });
});
