import { CheckpointPacer, type CheckpointPacing } from './checkpoint-pacer';

const PACING: CheckpointPacing = { targetMs: 500, minRowsPerTurn: 100, maxRowsPerTurn: 2_000 };

/**
 * Hands `rowCount` rows over as a checkpoint does, every turn taking `turnMs` on a fake clock;
 * returns the slice sizes.
 */
function slicesOf(rowCount: number, turnMs: number): number[] {
  let nowMs = 1_000;
  const pacer = new CheckpointPacer(PACING, () => nowMs);
  const sizes: number[] = [];
  for (let handed = 0; handed < rowCount;) {
    const size = pacer.nextSliceSize(rowCount - handed);
    sizes.push(size);
    handed += size;
    nowMs += turnMs;
  }
  return sizes;
}

const sum = (sizes: number[]) => sizes.reduce((total, size) => total + size, 0);

test('every row is handed over once, and no slice exceeds what is left', () => {
  for (const [rowCount, turnMs] of [
    [1, 3],
    [99, 3],
    [20_000, 3],
    [20_000, 40],
    [123_457, 25],
  ]) {
    const sizes = slicesOf(rowCount, turnMs);
    expect(sum(sizes)).toBe(rowCount);
    expect(sizes.every((size) => size >= 1 && size <= PACING.maxRowsPerTurn)).toBe(true);
  }
});

test('a lightly loaded process (many short turns) gets the smallest slices', () => {
  // 2 ms turns: 20,000 rows fit the target (200 turns, 400 ms) in 100-row slices, so no turn is
  // held longer than such a slice takes.
  const sizes = slicesOf(20_000, 2);
  expect(Math.max(...sizes)).toBe(PACING.minRowsPerTurn);
});

test('a busy process (few long turns) gets larger slices and still finishes near the target', () => {
  // 40 ms turns: 100-row slices would take 200 turns — 8 s, far behind the journal.
  const turnMs = 40;
  const sizes = slicesOf(20_000, turnMs);
  expect(Math.max(...sizes)).toBeGreaterThan(1_000);
  expect(sizes.length * turnMs).toBeLessThanOrEqual(PACING.targetMs + 2 * turnMs);
});

test('past its target a checkpoint hands over the largest slice every turn', () => {
  // 200 ms turns: the target passes after the third turn.
  const sizes = slicesOf(30_000, 200);
  expect(sizes[0]).toBe(PACING.minRowsPerTurn);
  expect(sizes.slice(3, -1).every((size) => size === PACING.maxRowsPerTurn)).toBe(true);
});
