import type { EventLoopLag, LoadReader, LoadReading } from './load-reading';
import {
  decidePoolSize,
  isThroughputProbeWindow,
  POOL_SIZING_THRESHOLDS,
  type PoolSizeHistory,
  type PoolSizeReason,
  type PoolWindow,
} from './pool-size-policy';
import {
  FREE_GROWTH_FACTOR,
  IDLE_PROBE,
  stepThroughputProbe,
  type ProbeState,
} from './throughput-probe';

/** The pool as the sizer sees it (page-pool.ts). */
export interface SizedPool {
  readonly size: number;
  readonly busyCount: number;
  readonly waitingCount: number;
  /** Renders that returned their page so far. */
  readonly completedCount: number;
  resize(size: number): void;
}

export interface PoolSizeChange {
  readonly fromSize: number;
  readonly toSize: number;
  readonly reason: PoolSizeReason;
  readonly atMs: number;
  /** What the window that led to it measured (undefined for brake and start changes). */
  readonly window: PoolWindow | undefined;
}

export interface PoolSizingStatus {
  readonly size: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isSelfSizing: boolean;
  readonly lastChange: PoolSizeChange;
  /** The latest complete window; undefined before the first. */
  readonly lastWindow: PoolWindow | undefined;
}

export interface PagePoolSizerOptions {
  readonly pool: SizedPool;
  readonly minSize: number;
  /** The operator's brake (max_concurrent_count), read at every decision. */
  readonly brake: () => number;
  /** No pool grows past this, whatever the brake says. */
  readonly hardMaxSize: number;
  readonly readLoad: LoadReader;
  readonly eventLoopLag: EventLoopLag;
  readonly onResize?: (change: PoolSizeChange) => void;
  readonly sampleIntervalMs?: number;
  /** Samples per decision window. */
  readonly windowSampleCount?: number;
  /** Every how many samples the tree's PSS is read. */
  readonly pssSampleInterval?: number;
  readonly now?: () => number;
}

const SAMPLE_INTERVAL_MS = 1000;
const WINDOW_SAMPLE_COUNT = 3;
const PSS_SAMPLE_INTERVAL = 5;

/**
 * Sizes the page pool while it runs (pool-size-policy.ts decides): every second it samples how
 * many renders hold or wait for a page; every window (3 s) it reads what the machine and the
 * pool's process tree used and resizes the pool. A new size starts a fresh window, so every
 * decision is based on a window measured entirely at the current size.
 */
export class PagePoolSizer {
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private windowStart: LoadReading | undefined;
  private latestPssBytes: number | undefined;
  private sampleCount = 0;
  private windowSampleCount = 0;
  private demandRatioSum = 0;
  private windowPeakDemand = 0;
  private saturatedWindowCount = 0;
  private windowsSinceShrink = Infinity;
  private readonly recentPeaks: number[] = [];
  private lastWindow: PoolWindow | undefined;
  private lastChange: PoolSizeChange;
  private windowStartCompletedCount = 0;
  private probe: ProbeState = IDLE_PROBE;
  /**
   * The size the throughput probe last kept: pages/s there rose, or did not fall. A saturated
   * CPU alone does not take the pool below it — the pages themselves answered that question, and
   * the CPU rule would only start a sawtooth (a soak went 16 → 9 → 16 over and over, one page per
   * 9 s, once a 15-window proof expired); memory, the event loop, idle demand and the brake still
   * may.
   */
  private provenSize = 0;
  /**
   * The size at which the CPU filled: where CPU headroom last grew the pool to (or any rule but
   * the probe's own step back took it below). The probe keeps pages that cost nothing up to FREE_GROWTH_FACTOR times it —
   * a shrink for a saturated CPU lowers it, nothing but CPU headroom raises it, so the probe's
   * own steps never move their own limit.
   */
  private cpuFilledSize: number;

  constructor(private readonly options: PagePoolSizerOptions) {
    this.now = options.now ?? Date.now;
    this.cpuFilledSize = options.pool.size;
    this.lastChange = {
      fromSize: options.pool.size,
      toSize: options.pool.size,
      reason: 'initial_size',
      atMs: this.now(),
      window: undefined,
    };
  }

  start(): void {
    this.windowStart = this.readLoad();
    this.windowStartCompletedCount = this.options.pool.completedCount;
    this.timer = setInterval(
      () => this.sample(),
      this.options.sampleIntervalMs ?? SAMPLE_INTERVAL_MS,
    );
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.options.eventLoopLag.stop();
  }

  get maxSize(): number {
    return Math.max(this.options.minSize, Math.min(this.options.hardMaxSize, this.options.brake()));
  }

  status(): PoolSizingStatus {
    return {
      size: this.options.pool.size,
      minSize: this.options.minSize,
      maxSize: this.maxSize,
      isSelfSizing: true,
      lastChange: this.lastChange,
      lastWindow: this.lastWindow,
    };
  }

  /**
   * The pool's size under a lowered brake: the brake, but not below the renders already holding
   * or waiting for a page — the admission controller admitted them before the brake came down,
   * and the brake never slows a request in flight (they would queue for the fewer pages). The
   * rest follows window by window as they finish.
   */
  private brakeSizeNow(): number {
    const { pool } = this.options;
    return Math.max(this.maxSize, Math.min(pool.size, pool.busyCount + pool.waitingCount));
  }

  /** The brake changed: a pool above it shrinks at once, as far as renders in flight allow. */
  brakeChanged(): void {
    const size = this.brakeSizeNow();
    if (this.options.pool.size <= size) return;
    this.apply(size, 'brake_lowered', undefined);
    this.probe = IDLE_PROBE;
    if (this.timer !== undefined) this.resetWindow(this.readLoad());
  }

  private readLoad(): LoadReading {
    const withPss =
      this.sampleCount % (this.options.pssSampleInterval ?? PSS_SAMPLE_INTERVAL) === 0;
    const reading = this.options.readLoad({ withPss });
    if (reading.treePssBytes !== undefined) this.latestPssBytes = reading.treePssBytes;
    return reading;
  }

  private sample(): void {
    const { pool } = this.options;
    this.sampleCount += 1;
    const demand = pool.busyCount + pool.waitingCount;
    this.demandRatioSum += demand / pool.size;
    this.windowPeakDemand = Math.max(this.windowPeakDemand, demand);
    this.windowSampleCount += 1;
    if (this.windowSampleCount < (this.options.windowSampleCount ?? WINDOW_SAMPLE_COUNT)) return;
    const end = this.readLoad();
    const start = this.windowStart as LoadReading;
    const window = this.windowOf(start, end);
    this.lastWindow = window;
    this.decide(window);
    this.resetWindow(end);
  }

  private windowOf(start: LoadReading, end: LoadReading): PoolWindow {
    const machineSeconds = Math.max(1e-6, end.machineTotalSeconds - start.machineTotalSeconds);
    const wallSeconds = Math.max(1e-3, (end.atMs - start.atMs) / 1000);
    const stall =
      start.cpuStallMicroseconds === undefined || end.cpuStallMicroseconds === undefined
        ? undefined
        : (end.cpuStallMicroseconds - start.cpuStallMicroseconds) / 1e6 / wallSeconds;
    const clampRatio = (value: number) => Math.max(0, Math.min(1, value));
    const machineCpuBusyRatio = clampRatio(
      (end.machineBusySeconds - start.machineBusySeconds) / machineSeconds,
    );
    return {
      machineCpuBusyRatio,
      // The tree is part of the machine. Its processes and the machine are read a moment apart,
      // in whole clock ticks, so its share can come out a hair above the machine's: cap it there.
      treeCpuRatio: Math.min(
        machineCpuBusyRatio,
        clampRatio((end.treeCpuSeconds - start.treeCpuSeconds) / machineSeconds),
      ),
      cpuStallRatio: stall === undefined ? undefined : clampRatio(stall),
      memoryAvailableBytes: end.memory.availableBytes,
      memoryTotalBytes: end.memory.totalBytes,
      treePssBytes: this.latestPssBytes,
      eventLoopLagMs: this.options.eventLoopLag.readPercentile90Ms(),
      demandRatio: this.demandRatioSum / this.windowSampleCount,
      peakDemandCount: this.windowPeakDemand,
      completedPerSecond:
        (this.options.pool.completedCount - this.windowStartCompletedCount) / wallSeconds,
    };
  }

  private decide(window: PoolWindow): void {
    const isSaturated = window.machineCpuBusyRatio >= POOL_SIZING_THRESHOLDS.cpuSaturatedRatio;
    this.saturatedWindowCount = isSaturated ? this.saturatedWindowCount + 1 : 0;
    this.windowsSinceShrink += 1;
    this.recentPeaks.push(window.peakDemandCount);
    if (this.recentPeaks.length > POOL_SIZING_THRESHOLDS.idleShrinkWindowCount) {
      this.recentPeaks.shift();
    }
    const size = this.options.pool.size;
    const maxSize = this.maxSize;
    const history: PoolSizeHistory = {
      saturatedWindowCount: this.saturatedWindowCount,
      windowsSinceShrink: this.windowsSinceShrink,
      recentPeakDemandCount: Math.max(...this.recentPeaks),
      recentWindowCount: this.recentPeaks.length,
    };
    let decision = decidePoolSize(
      { size, minSize: this.options.minSize, maxSize },
      window,
      history,
    );
    if (decision?.reason === 'brake_lowered') {
      decision = { ...decision, size: this.brakeSizeNow() };
    }
    if (decision?.reason === 'processor_saturated' && size <= this.provenSize) {
      decision = undefined;
    }
    const probe = stepThroughputProbe(
      this.probe,
      {
        size,
        completedPerSecond: window.completedPerSecond,
        isEligible: decision === undefined && isThroughputProbeWindow(window, history),
      },
      maxSize,
      FREE_GROWTH_FACTOR * this.cpuFilledSize,
    );
    if (this.probe.kind === 'probing' && probe.state.kind === 'measuring') {
      this.provenSize = size;
    }
    this.probe = probe.state;
    const next = decision ?? probe.resize;
    if (next !== undefined) this.apply(next.size, next.reason, window);
  }

  private apply(size: number, reason: PoolSizeReason, window: PoolWindow | undefined): void {
    const fromSize = this.options.pool.size;
    if (size === fromSize) return;
    this.options.pool.resize(size);
    if (size < fromSize) this.windowsSinceShrink = 0;
    if (reason === 'processor_headroom') this.cpuFilledSize = size;
    else if (size < fromSize && reason !== 'throughput_flat') {
      this.cpuFilledSize = Math.min(this.cpuFilledSize, size);
    }
    // A new size needs its own measurements: the old ones say nothing about it.
    this.saturatedWindowCount = 0;
    this.recentPeaks.length = 0;
    this.lastChange = { fromSize, toSize: size, reason, atMs: this.now(), window };
    this.options.onResize?.(this.lastChange);
  }

  private resetWindow(start: LoadReading): void {
    this.windowStart = start;
    this.windowStartCompletedCount = this.options.pool.completedCount;
    this.windowSampleCount = 0;
    this.demandRatioSum = 0;
    this.windowPeakDemand = 0;
  }
}
