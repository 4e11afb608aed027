import { decidePoolSize, PoolSizeBounds, PoolSizeHistory, PoolWindow } from './pool-size-policy';

const GIB = 1024 ** 3;

/** A full pool on a machine with room: half the CPU used, all of it by the pool. */
function windowOf(overrides: Partial<PoolWindow> = {}): PoolWindow {
  return {
    machineCpuBusyRatio: 0.5,
    treeCpuRatio: 0.5,
    cpuStallRatio: 0.05,
    memoryAvailableBytes: 20 * GIB,
    memoryTotalBytes: 24 * GIB,
    treePssBytes: 1 * GIB,
    eventLoopLagMs: 12,
    demandRatio: 1,
    peakDemandCount: 4,
    completedPerSecond: 6,
    ...overrides,
  };
}

const BOUNDS: PoolSizeBounds = { size: 4, minSize: 1, maxSize: 16 };
const HISTORY: PoolSizeHistory = {
  saturatedWindowCount: 0,
  windowsSinceShrink: Infinity,
  recentPeakDemandCount: 4,
  recentWindowCount: 1,
};

describe('decidePoolSize', () => {
  test('a full pool with CPU room grows toward the CPU target, at most ×1.5 per window', () => {
    // 4 pages use 50 %: a full CPU would fit 8; one step allows 6.
    expect(decidePoolSize(BOUNDS, windowOf(), HISTORY)).toEqual({
      size: 6,
      reason: 'processor_headroom',
    });
    // 4 pages use 80 %: 4 / 0.8 = 5.
    expect(
      decidePoolSize(BOUNDS, windowOf({ machineCpuBusyRatio: 0.8, treeCpuRatio: 0.8 }), HISTORY),
    ).toEqual({ size: 5, reason: 'processor_headroom' });
  });

  test('leaves what other processes use out of the projection', () => {
    const decision = decidePoolSize(
      { ...BOUNDS, size: 8 },
      windowOf({ machineCpuBusyRatio: 0.7, treeCpuRatio: 0.3 }),
      HISTORY,
    );
    // 8 pages use 30 %, others 40 %: the pool's room, 60 %, fits 16; the step allows 12.
    expect(decision).toEqual({ size: 12, reason: 'processor_headroom' });
  });

  test('does not grow a pool that is not full, nor past the brake', () => {
    expect(decidePoolSize(BOUNDS, windowOf({ demandRatio: 0.6 }), HISTORY)).toBeUndefined();
    expect(decidePoolSize({ ...BOUNDS, maxSize: 4 }, windowOf(), HISTORY)).toBeUndefined();
    expect(decidePoolSize({ ...BOUNDS, maxSize: 5 }, windowOf(), HISTORY)).toEqual({
      size: 5,
      reason: 'processor_headroom',
    });
  });

  test('does not grow on a busy CPU, a lagging event loop or right after a shrink', () => {
    expect(
      decidePoolSize(BOUNDS, windowOf({ machineCpuBusyRatio: 0.96, treeCpuRatio: 0.9 }), HISTORY),
    ).toBeUndefined();
    expect(decidePoolSize(BOUNDS, windowOf({ eventLoopLagMs: 60 }), HISTORY)).toBeUndefined();
    expect(
      decidePoolSize(BOUNDS, windowOf(), { ...HISTORY, windowsSinceShrink: 1 }),
    ).toBeUndefined();
  });

  test('a brake below the size wins over everything', () => {
    expect(decidePoolSize({ ...BOUNDS, size: 10, maxSize: 3 }, windowOf(), HISTORY)).toEqual({
      size: 3,
      reason: 'brake_lowered',
    });
  });

  test('shrinks by a quarter when memory runs short or the tree is over its budget', () => {
    expect(
      decidePoolSize(
        { ...BOUNDS, size: 8 },
        windowOf({ memoryAvailableBytes: 0.5 * GIB }),
        HISTORY,
      ),
    ).toEqual({ size: 6, reason: 'memory_pressure' });
    expect(
      decidePoolSize({ ...BOUNDS, size: 8 }, windowOf({ treePssBytes: 13 * GIB }), HISTORY),
    ).toEqual({ size: 6, reason: 'memory_pressure' });
  });

  test('grows only as far as the memory allows', () => {
    // 4 pages in 4 GiB (1 GiB a page); the kernel must keep twice the reserve (2 · 2.4 GiB).
    const heavy = { treePssBytes: 4 * GIB };
    // 5.5 GiB available: 0.7 GiB spare, not a page.
    expect(
      decidePoolSize(BOUNDS, windowOf({ ...heavy, memoryAvailableBytes: 5.5 * GIB }), HISTORY),
    ).toBeUndefined();
    // 6 GiB available: 1.2 GiB spare, one page (the CPU would allow two).
    expect(
      decidePoolSize(BOUNDS, windowOf({ ...heavy, memoryAvailableBytes: 6 * GIB }), HISTORY),
    ).toEqual({ size: 5, reason: 'processor_headroom' });
  });

  test('shrinks by one when the event loop lags, unless other processes keep the machine busy', () => {
    expect(decidePoolSize(BOUNDS, windowOf({ eventLoopLagMs: 150 }), HISTORY)).toEqual({
      size: 3,
      reason: 'event_loop_lagging',
    });
    const othersLoad = windowOf({ eventLoopLagMs: 150, machineCpuBusyRatio: 1, treeCpuRatio: 0.3 });
    expect(decidePoolSize(BOUNDS, othersLoad, HISTORY)).toBeUndefined();
  });

  test('a saturated CPU shrinks the pool when tasks wait for it and the pool causes the load', () => {
    const saturated = windowOf({ machineCpuBusyRatio: 1, treeCpuRatio: 0.9, cpuStallRatio: 0.6 });
    const twice = { ...HISTORY, saturatedWindowCount: 3 };
    expect(
      decidePoolSize(BOUNDS, saturated, { ...HISTORY, saturatedWindowCount: 2 }),
    ).toBeUndefined();
    expect(decidePoolSize(BOUNDS, saturated, twice)).toEqual({
      size: 3,
      reason: 'processor_saturated',
    });
    // Tasks seldom wait for a CPU: the pool fills it about exactly — keep it.
    expect(decidePoolSize(BOUNDS, { ...saturated, cpuStallRatio: 0.3 }, twice)).toBeUndefined();
    // Other processes cause most of the load: shrinking would not relieve it.
    expect(decidePoolSize(BOUNDS, { ...saturated, treeCpuRatio: 0.3 }, twice)).toBeUndefined();
    // Without pressure information, a saturated CPU is enough.
    expect(decidePoolSize(BOUNDS, { ...saturated, cpuStallRatio: undefined }, twice)).toEqual({
      size: 3,
      reason: 'processor_saturated',
    });
  });

  test('gives idle pages back after low demand over the whole horizon, never below the minimum', () => {
    const idle = windowOf({ demandRatio: 0.1, peakDemandCount: 1 });
    const size = { ...BOUNDS, size: 8, minSize: 3 };
    expect(
      decidePoolSize(size, idle, { ...HISTORY, recentPeakDemandCount: 1, recentWindowCount: 9 }),
    ).toBeUndefined();
    expect(
      decidePoolSize(size, idle, { ...HISTORY, recentPeakDemandCount: 1, recentWindowCount: 10 }),
    ).toEqual({ size: 3, reason: 'demand_low' });
    expect(
      decidePoolSize(size, idle, { ...HISTORY, recentPeakDemandCount: 5, recentWindowCount: 10 }),
    ).toEqual({ size: 6, reason: 'demand_low' });
  });
});
