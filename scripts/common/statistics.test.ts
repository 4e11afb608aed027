import { median } from './statistics';

test('the median is the middle value, or the mean of the two middle ones', () => {
  expect(median([5, 1, 3])).toBe(3);
  expect(median([4, 1, 3, 2])).toBe(2.5);
  expect(median([7])).toBe(7);
  expect(median([])).toBeNaN();
});

test('the median leaves its input in the order it was given', () => {
  const values = [3, 1, 2];
  median(values);
  expect(values).toEqual([3, 1, 2]);
});
