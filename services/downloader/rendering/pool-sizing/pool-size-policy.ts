/**
 * How the page pool decides its size: a pure function of what the last window measured, so every
 * rule can be tested with made-up numbers. The sizer (page-pool-sizer.ts) measures and applies.
 *
 * The goal is the smallest pool that gets the most pages through: rendering is CPU work (pages'
 * renderers, the browser, our own process), so pages beyond the point where the CPU is full only
 * add latency and memory. Compared with Crawlee's AutoscaledPool (machine CPU > 95 % in 40 % of
 * 1 s snapshots → −5 %, else +5 %, every 10 s):
 *  - it steps in proportion to the headroom instead of 5 % per 10 s: from what the pool's own
 *    process tree (Node + every Chromium process) used at this size, it projects the size that
 *    fills the CPU target, and gets there in one or two 3-second windows;
 *  - it grows only when the pages are actually in demand (a pool that is not full cannot use
 *    more pages), and gives idle pages back when demand stays low;
 *  - it tells its own load from other processes' (machine − tree): it does not shrink for load it
 *    did not cause, and its projection leaves what others use;
 *  - it asks the kernel whether runnable tasks wait for a CPU (pressure stall information) before
 *    calling a full CPU "too many pages";
 *  - on a full CPU, where CPU figures cannot tell whether one more page helps, it asks the pages:
 *    the throughput probe (throughput-probe.ts) keeps more pages when pages/s rose, or did not
 *    fall while the pool stays within twice the size at which the CPU filled;
 *  - memory is the proportional set size of the tree against what the kernel can still give
 *    (MemAvailable, within a cgroup limit), not RSS (which counts Chromium's shared pages once
 *    per process).
 */

export const POOL_SIZE_REASONS = [
  'initial_size',
  'fixed_size',
  'processor_headroom',
  'processor_saturated',
  'memory_pressure',
  'event_loop_lagging',
  'demand_low',
  'brake_lowered',
  'throughput_probe',
  'throughput_flat',
] as const;
export type PoolSizeReason = (typeof POOL_SIZE_REASONS)[number];

/** What one window (a few seconds at one pool size) measured. */
export interface PoolWindow {
  /** All cores, all processes: busy time / wall time / cores. */
  readonly machineCpuBusyRatio: number;
  /** This process and its descendants (Chromium), as a share of all cores. */
  readonly treeCpuRatio: number;
  /** Share of the window in which some runnable task waited for a CPU; undefined: not known. */
  readonly cpuStallRatio: number | undefined;
  readonly memoryAvailableBytes: number;
  readonly memoryTotalBytes: number;
  /** Proportional set size of the tree (latest reading), undefined when not read yet. */
  readonly treePssBytes: number | undefined;
  /** 90th percentile of the Node event loop's delay over the window. */
  readonly eventLoopLagMs: number;
  /** Mean of (renders holding a page + renders waiting for one) / size over the window. */
  readonly demandRatio: number;
  /** Highest (holding + waiting) seen in the window. */
  readonly peakDemandCount: number;
  /** Renders that returned their page per second over the window. */
  readonly completedPerSecond: number;
}

export interface PoolSizeBounds {
  readonly size: number;
  readonly minSize: number;
  /** The operator's brake (max_concurrent_count) and the hard cap, whichever is lower. */
  readonly maxSize: number;
}

/** What the policy remembers between windows. */
export interface PoolSizeHistory {
  /** Consecutive windows (including this one) with the CPU saturated. */
  readonly saturatedWindowCount: number;
  /** Windows since the last shrink (Infinity: never shrank). */
  readonly windowsSinceShrink: number;
  /** Highest demand over the recent windows (the idle-shrink horizon), this one included. */
  readonly recentPeakDemandCount: number;
  /** How many windows `recentPeakDemandCount` covers. */
  readonly recentWindowCount: number;
}

export interface PoolSizeDecision {
  readonly size: number;
  readonly reason: PoolSizeReason;
}

export const POOL_SIZING_THRESHOLDS = {
  /** Grow only while the machine's CPU is below this. */
  cpuGrowBelowRatio: 0.95,
  /**
   * The projection's target: the CPU share the pool may fill, with what others use left. Full:
   * the most pages go through at the point where the CPU just fills (and a bigger pool renders a
   * page with less CPU — per-page overheads are shared), not below it.
   */
  cpuTargetRatio: 1,
  /** At or above this for `saturatedWindowLimit` windows, the CPU counts as saturated. */
  cpuSaturatedRatio: 0.98,
  saturatedWindowLimit: 3,
  /** A saturated CPU shrinks the pool only when tasks wait for a CPU at least this much … */
  cpuStallShrinkRatio: 0.5,
  /** … and the pool's tree causes at least this share of the load. */
  ownLoadShareRatio: 0.5,
  /** Pages in use over the window: below this share of the size the pool is not full. */
  demandFullRatio: 0.85,
  /** Largest step up: ×1.5 (at least +1). */
  growFactorLimit: 1.5,
  /** Node's event loop this late (p90): shrink; half of it: no growth. */
  eventLoopLagShrinkMs: 100,
  /** Memory the kernel must keep available: this share of the total, at least the floor. */
  memoryReserveRatio: 0.1,
  memoryReserveFloorBytes: 1024 * 1024 * 1024,
  /** The tree's PSS may use at most this share of the total. */
  memoryBudgetRatio: 0.5,
  /** After a shrink, windows before the pool may grow again (hysteresis: no quick flapping). */
  growHoldAfterShrinkWindows: 5,
  /** Windows of low demand before idle pages are given back. */
  idleShrinkWindowCount: 10,
} as const;

export type PoolSizingThresholds = typeof POOL_SIZING_THRESHOLDS;

function clamp(size: number, bounds: PoolSizeBounds): number {
  return Math.max(bounds.minSize, Math.min(bounds.maxSize, size));
}

function memoryReserveBytes(window: PoolWindow, thresholds: PoolSizingThresholds): number {
  return Math.max(
    thresholds.memoryReserveFloorBytes,
    window.memoryTotalBytes * thresholds.memoryReserveRatio,
  );
}

function isMemoryShort(window: PoolWindow, thresholds: PoolSizingThresholds): boolean {
  const isOverBudget =
    window.treePssBytes !== undefined &&
    window.treePssBytes > window.memoryTotalBytes * thresholds.memoryBudgetRatio;
  return window.memoryAvailableBytes < memoryReserveBytes(window, thresholds) || isOverBudget;
}

/** Largest size the memory allows: each added page costs about what a page costs now. */
function memoryAllowedSize(
  window: PoolWindow,
  size: number,
  thresholds: PoolSizingThresholds,
): number {
  if (window.treePssBytes === undefined || size === 0) return Infinity;
  const bytesPerPage = window.treePssBytes / size;
  const spareBytes = Math.min(
    window.memoryAvailableBytes - 2 * memoryReserveBytes(window, thresholds),
    window.memoryTotalBytes * thresholds.memoryBudgetRatio - window.treePssBytes,
  );
  return size + Math.max(0, Math.floor(spareBytes / bytesPerPage));
}

/** The size that would fill the CPU target, from what the tree used at the current size. */
function projectedCpuSize(
  window: PoolWindow,
  size: number,
  thresholds: PoolSizingThresholds,
): number {
  const othersRatio = Math.max(0, window.machineCpuBusyRatio - window.treeCpuRatio);
  const ownRoomRatio = thresholds.cpuTargetRatio - othersRatio;
  const perPageRatio = Math.max(window.treeCpuRatio, 0.01) / size;
  return Math.ceil(ownRoomRatio / perPageRatio);
}

/**
 * Whether the window is one for the throughput probe (throughput-probe.ts): the policy keeps the
 * size, every page is in use, the CPU is too full for `processor_headroom`, the event loop is
 * calm and no shrink is recent.
 */
export function isThroughputProbeWindow(
  window: PoolWindow,
  history: PoolSizeHistory,
  thresholds: PoolSizingThresholds = POOL_SIZING_THRESHOLDS,
): boolean {
  return (
    window.demandRatio >= thresholds.demandFullRatio &&
    window.machineCpuBusyRatio >= thresholds.cpuGrowBelowRatio &&
    window.eventLoopLagMs < thresholds.eventLoopLagShrinkMs / 2 &&
    history.windowsSinceShrink >= thresholds.growHoldAfterShrinkWindows
  );
}

/**
 * The new size and why, or undefined to keep the size. Order: brake, memory, event loop, CPU
 * saturation, idle demand — every reason to shrink wins over growing.
 */
export function decidePoolSize(
  bounds: PoolSizeBounds,
  window: PoolWindow,
  history: PoolSizeHistory,
  thresholds: PoolSizingThresholds = POOL_SIZING_THRESHOLDS,
): PoolSizeDecision | undefined {
  const { size, minSize } = bounds;
  const shrinkTo = (target: number, reason: PoolSizeReason): PoolSizeDecision | undefined => {
    const next = clamp(target, bounds);
    return next < size ? { size: next, reason } : undefined;
  };
  if (size > bounds.maxSize) return { size: bounds.maxSize, reason: 'brake_lowered' };
  if (isMemoryShort(window, thresholds)) {
    return shrinkTo(size - Math.max(1, Math.ceil(size / 4)), 'memory_pressure');
  }
  const isOwnLoad =
    window.treeCpuRatio >= thresholds.ownLoadShareRatio * window.machineCpuBusyRatio;
  // A lagging loop on a machine that others keep busy is their load, not too many pages.
  const isLoopOwnProblem = window.machineCpuBusyRatio < thresholds.cpuGrowBelowRatio || isOwnLoad;
  if (window.eventLoopLagMs >= thresholds.eventLoopLagShrinkMs && isLoopOwnProblem) {
    return shrinkTo(size - 1, 'event_loop_lagging');
  }
  const isStalled =
    window.cpuStallRatio === undefined || window.cpuStallRatio >= thresholds.cpuStallShrinkRatio;
  if (history.saturatedWindowCount >= thresholds.saturatedWindowLimit && isStalled && isOwnLoad) {
    return shrinkTo(size - 1, 'processor_saturated');
  }
  if (
    history.recentWindowCount >= thresholds.idleShrinkWindowCount &&
    history.recentPeakDemandCount < size - 1
  ) {
    return shrinkTo(Math.max(minSize, history.recentPeakDemandCount + 1), 'demand_low');
  }

  const isFull = window.demandRatio >= thresholds.demandFullRatio;
  const hasCpuRoom = window.machineCpuBusyRatio < thresholds.cpuGrowBelowRatio;
  const isLoopCalm = window.eventLoopLagMs < thresholds.eventLoopLagShrinkMs / 2;
  const isHeld = history.windowsSinceShrink < thresholds.growHoldAfterShrinkWindows;
  if (!isFull || !hasCpuRoom || !isLoopCalm || isHeld || size >= bounds.maxSize) return undefined;
  const limit = Math.min(
    Math.ceil(size * thresholds.growFactorLimit),
    memoryAllowedSize(window, size, thresholds),
  );
  const next = clamp(
    Math.min(limit, Math.max(size + 1, projectedCpuSize(window, size, thresholds))),
    bounds,
  );
  return next > size ? { size: next, reason: 'processor_headroom' } : undefined;
}
