import { reportMarginOf } from './lease-loop';

describe('reportMarginOf', () => {
  it('keeps the full margin for a long lease', () => {
    expect(reportMarginOf(120_000, 5000)).toBe(5000);
  });

  it('keeps a fifth of a short lease, leaving most of it for the tasks', () => {
    expect(reportMarginOf(10_000, 5000)).toBe(2000);
    expect(reportMarginOf(8000, 5000)).toBe(1600);
  });

  it('never goes negative for a lease that has already expired', () => {
    expect(reportMarginOf(-500, 5000)).toBe(0);
  });
});
