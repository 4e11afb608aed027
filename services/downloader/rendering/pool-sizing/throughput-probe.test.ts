import {
  IDLE_PROBE,
  isRealGain,
  isRealLoss,
  PROBE_COOLDOWN_WINDOWS,
  firstProbeStepOf,
  stepThroughputProbe,
  type ProbeState,
  type ProbeStep,
} from './throughput-probe';

/** Feeds windows at the size the probe asks for; returns every resize it asked for. */
function run(
  rateAtSize: (size: number) => number,
  windowCount: number,
  startSize = 4,
  maxSize = 16,
  /** 0: every step must pay (no free growth). */
  freeGrowthLimit = 0,
): { sizes: number[]; reasons: string[]; state: ProbeState } {
  let state: ProbeState = IDLE_PROBE;
  let size = startSize;
  const sizes: number[] = [];
  const reasons: string[] = [];
  for (let index = 0; index < windowCount; index += 1) {
    const step: ProbeStep = stepThroughputProbe(
      state,
      { size, completedPerSecond: rateAtSize(size), isEligible: true },
      maxSize,
      freeGrowthLimit,
    );
    state = step.state;
    if (step.resize !== undefined) {
      size = step.resize.size;
      sizes.push(size);
      reasons.push(step.resize.reason);
    }
  }
  return { sizes, reasons, state };
}

/** Three steps up (4 → 5 → 7 → 11), the last undone. */
const THREE_STEPS_THEN_BACK = [
  'throughput_probe',
  'throughput_probe',
  'throughput_probe',
  'throughput_flat',
];

describe('the throughput probe', () => {
  test('keeps adding pages, twice as many each time, while they bring more pages/s; then steps back and rests', () => {
    // Pages/s rise to 6 pages, then stay flat.
    const rate = (size: number) => Math.min(size, 6) * 1.5;
    // 2 windows measured, then 2 per probe: 4 → 5 (+1 paid) → 7 (+2 paid: 6 is in it) → 11 (+4,
    // flat) → back to 7 after 10 windows.
    const result = run(rate, 10 + PROBE_COOLDOWN_WINDOWS);
    expect(result.sizes).toEqual([5, 7, 11, 7]);
    expect(result.reasons).toEqual(THREE_STEPS_THEN_BACK);
    // Then it rests PROBE_COOLDOWN_WINDOWS windows, measures 7 again and tries a quarter more.
    expect(run(rate, 10 + PROBE_COOLDOWN_WINDOWS + 2).sizes).toEqual([5, 7, 11, 7, 9]);
  });

  test('climbs from 4 to a brake of 16 in four probes while every step pays', () => {
    const result = run((size) => size, 12);
    expect(result.sizes).toEqual([5, 7, 11, 16]);
  });

  test('the first probe adds a quarter of the pages, at least one', () => {
    expect([1, 2, 4, 6, 11, 12, 16].map(firstProbeStepOf)).toEqual([1, 1, 1, 2, 3, 3, 4]);
    // A pool that filled the CPU at 12 pages reaches a brake of 16 in two probes, not four.
    const fromTwelve = run((size) => size, 6, 12);
    expect(fromTwelve.sizes).toEqual([15, 16]);
  });

  test('tries again after its rest, and stops at the brake', () => {
    const flat = run(() => 9, 4 + PROBE_COOLDOWN_WINDOWS + 2);
    expect(flat.sizes).toEqual([5, 4, 5]);
    const rising = run((size) => size, 40, 4, 6);
    expect(rising.sizes).toEqual([5, 6]);
  });

  test('drops a measurement when the regime ends; rests when a probe ended it', () => {
    const measuring = stepThroughputProbe(
      IDLE_PROBE,
      { size: 4, completedPerSecond: 6, isEligible: true },
      16,
      0,
    );
    expect(measuring.state.kind).toBe('measuring');
    expect(
      stepThroughputProbe(
        measuring.state,
        { size: 4, completedPerSecond: 6, isEligible: false },
        16,
        0,
      ).state,
    ).toEqual(IDLE_PROBE);
    const probing: ProbeState = {
      kind: 'probing',
      fromSize: 4,
      baseRates: [6, 6],
      size: 5,
      rates: [],
      step: 1,
    };
    expect(
      stepThroughputProbe(probing, { size: 5, completedPerSecond: 6, isEligible: false }, 16, 0)
        .state,
    ).toEqual({ kind: 'idle', cooldownWindowCount: PROBE_COOLDOWN_WINDOWS });
  });

  test('keeps pages that cost nothing up to its free-growth limit, then steps back from the first step past it', () => {
    // Flat from 4 pages on: 4 → 5 → 7 kept for free (limit 8), 7 → 11 past it: back to 7.
    const flat = run(() => 9, 10, 4, 16, 8);
    expect(flat.sizes).toEqual([5, 7, 11, 7]);
    expect(flat.reasons).toEqual(THREE_STEPS_THEN_BACK);
    // A step that pays is kept beyond the limit, as before.
    expect(run((size) => size, 12, 4, 16, 8).sizes).toEqual([5, 7, 11, 16]);
  });

  test('a step that lowers pages/s by more than chance is undone even within the limit', () => {
    const falling = run((size) => (size > 5 ? 8 : 10), 7, 4, 16, 32);
    expect(falling.sizes).toEqual([5, 7, 5]);
    expect(falling.reasons.at(-1)).toBe('throughput_flat');
    expect(falling.state).toEqual({ kind: 'idle', cooldownWindowCount: PROBE_COOLDOWN_WINDOWS });
    expect(isRealLoss([10, 10], [8, 8])).toBe(true);
    // A dip inside the windows' own noise is no loss.
    expect(isRealLoss([10, 12], [10, 11])).toBe(false);
  });

  test('a gain inside the windows own noise does not pay; a gain beyond it does', () => {
    // +11 % — above the 5 % floor, but the windows at each size differ by about as much.
    expect(isRealGain([10, 12], [11, 13.5])).toBe(false);
    // +11 % with steady windows: real.
    expect(isRealGain([10.9, 11.1], [12.1, 12.3])).toBe(true);
    // A large gain clears even noisy windows.
    expect(isRealGain([10, 12], [15, 16])).toBe(true);
    // Steady windows still need the 5 % floor.
    expect(isRealGain([10, 10], [10.3, 10.3])).toBe(false);
  });

  test('a noisy window pair that only seems to rise sends the pool back', () => {
    let state: ProbeState = IDLE_PROBE;
    const windows: Array<[number, number]> = [
      [4, 10],
      [4, 12],
      [5, 11],
      [5, 13.5],
    ];
    const resizes: number[] = [];
    for (const [size, completedPerSecond] of windows) {
      const step = stepThroughputProbe(
        state,
        { size, completedPerSecond, isEligible: true },
        16,
        0,
      );
      state = step.state;
      if (step.resize !== undefined) resizes.push(step.resize.size);
    }
    expect(resizes).toEqual([5, 4]);
    expect(state).toEqual({ kind: 'idle', cooldownWindowCount: PROBE_COOLDOWN_WINDOWS });
  });
});
