import { rowsPerTurnOf } from './checkpointer';

test('a checkpoint hands LMDB at least 500 rows a turn, and larger backlogs in at most 40 turns', () => {
  expect(rowsPerTurnOf(1)).toBe(500);
  expect(rowsPerTurnOf(20_000)).toBe(500);
  // A busy process has few turns a second: a backlog must not take more turns to write than a
  // threshold's worth, or checkpoints fall behind the journal (back-pressure).
  expect(rowsPerTurnOf(114_240)).toBe(2_856);
  expect(Math.ceil(200_000 / rowsPerTurnOf(200_000))).toBeLessThanOrEqual(40);
});
