import {
  IDLE_PROBE,
  PROBE_COOLDOWN_WINDOWS,
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

describe('the throughput probe', () => {
  test('keeps adding pages while each one brings more pages/s, then steps back and rests', () => {
    // Pages/s rise to 6 pages, then stay flat.
    const rate = (size: number) => Math.min(size, 6) * 1.5;
    // 2 windows measured, then 2 per probe: 4 → 5 → 6 → 7, no gain, back to 6 after 10 windows.
    const result = run(rate, 10 + PROBE_COOLDOWN_WINDOWS);
    expect(result.sizes.slice(0, 4)).toEqual([5, 6, 7, 6]);
    expect(result.reasons.slice(0, 4)).toEqual([
      'throughput_probe',
      'throughput_probe',
      'throughput_probe',
      'throughput_flat',
    ]);
    // Then it rests PROBE_COOLDOWN_WINDOWS windows, measures 6 again and tries 7 again.
    expect(result.sizes).toHaveLength(4);
    expect(run(rate, 10 + PROBE_COOLDOWN_WINDOWS + 2).sizes).toEqual([5, 6, 7, 6, 7]);
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
    );
    expect(measuring.state.kind).toBe('measuring');
    expect(
      stepThroughputProbe(
        measuring.state,
        { size: 4, completedPerSecond: 6, isEligible: false },
        16,
      ).state,
    ).toEqual(IDLE_PROBE);
    const probing: ProbeState = { kind: 'probing', fromSize: 4, baseRate: 6, size: 5, rates: [] };
    expect(
      stepThroughputProbe(probing, { size: 5, completedPerSecond: 6, isEligible: false }, 16).state,
    ).toEqual({ kind: 'idle', cooldownWindowCount: PROBE_COOLDOWN_WINDOWS });
  });
});
