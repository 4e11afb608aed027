import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import {
  listProcessTree,
  readCpuPressureStallMicroseconds,
  readMachineCpuSeconds,
  readMemoryState,
  readPssBytes,
  ProcessTreeCpuCounter,
  type MemoryState,
} from './proc-stats';

/** The machine and the pool's process tree at one moment (counters since boot). */
export interface LoadReading {
  readonly atMs: number;
  readonly machineBusySeconds: number;
  readonly machineTotalSeconds: number;
  /** CPU time of this process and every descendant (Chromium), exited ones included. */
  readonly treeCpuSeconds: number;
  readonly cpuStallMicroseconds: number | undefined;
  readonly memory: MemoryState;
  /** Read only when asked for: smaps_rollup of every process costs more than the rest. */
  readonly treePssBytes: number | undefined;
  readonly treeProcessCount: number;
}

export type LoadReader = (options: { readonly withPss: boolean }) => LoadReading;

/** Reads the machine and the tree under `rootPid` (this process by default) from /proc. */
export function procLoadReader(rootPid: number = process.pid): LoadReader {
  const treeCpu = new ProcessTreeCpuCounter();
  return ({ withPss }) => {
    const tree = listProcessTree(rootPid);
    const machine = readMachineCpuSeconds();
    return {
      atMs: Date.now(),
      machineBusySeconds: machine.busy,
      machineTotalSeconds: machine.total,
      treeCpuSeconds: treeCpu.update(tree),
      cpuStallMicroseconds: readCpuPressureStallMicroseconds(),
      memory: readMemoryState(),
      treePssBytes: withPss
        ? tree.reduce((sum, entry) => sum + readPssBytes(entry.pid), 0)
        : undefined,
      treeProcessCount: tree.length,
    };
  };
}

/** The event loop's delay since the last read (90th percentile, ms: one long pause is not a lagging loop). */
export interface EventLoopLag {
  readPercentile90Ms(): number;
  stop(): void;
}

export function monitorEventLoopLag(): EventLoopLag {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    readPercentile90Ms: () => {
      const lagMs = histogram.count > 0 ? histogram.percentile(90) / 1e6 : 0;
      histogram.reset();
      return lagMs;
    },
    stop: () => histogram.disable(),
  };
}
