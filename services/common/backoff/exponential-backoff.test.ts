import { backoffCeiling, backoffDelay } from './exponential-backoff';

const schedule = { initial: 100, cap: 1000 };

test('doubles from the first delay up to the cap', () => {
  expect([0, 1, 2, 3, 4, 10].map((count) => backoffCeiling(schedule, count))).toEqual([
    100, 200, 400, 800, 1000, 1000,
  ]);
  expect(backoffCeiling(schedule, -1)).toBe(100);
  expect(backoffCeiling(schedule, 5000)).toBe(1000);
  expect(backoffCeiling({ initial: 0, cap: 1000 }, 5000)).toBe(0);
});

test('draws full jitter in [0, ceiling] and equal jitter in [ceiling / 2, ceiling]', () => {
  const lowest = () => 0;
  const highest = () => 0.999;
  expect(backoffDelay(schedule, { doublingCount: 2, jitter: 'full', random: lowest })).toBe(0);
  expect(backoffDelay(schedule, { doublingCount: 2, jitter: 'full', random: highest })).toBeCloseTo(
    399.6,
  );
  expect(backoffDelay(schedule, { doublingCount: 2, jitter: 'equal', random: lowest })).toBe(200);
  expect(
    backoffDelay(schedule, { doublingCount: 2, jitter: 'equal', random: highest }),
  ).toBeCloseTo(399.8);
  expect(backoffDelay(schedule, { doublingCount: 2, jitter: 'none' })).toBe(400);
});

test('stays within its bounds for any random draw', () => {
  for (let draw = 0; draw < 200; draw += 1) {
    const delay = backoffDelay(schedule, { doublingCount: 3, jitter: 'equal' });
    expect(delay).toBeGreaterThanOrEqual(400);
    expect(delay).toBeLessThanOrEqual(800);
  }
});
