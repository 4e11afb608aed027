import {
  listProcessTree,
  readMachineCpuSeconds,
  readProcessEntry,
  readPssBytes,
  ProcessTreeCpuCounter,
  type ProcessEntry,
} from '../../services/downloader/rendering/pool-sizing/proc-stats';

/** CPU time used so far, by the tree and by the whole machine (every process, other users too). */
export interface CpuSample {
  readonly atMs: number;
  /** User + system time of every process seen in the tree, exited ones included. */
  readonly treeCpuSeconds: number;
  readonly machineBusySeconds: number;
  readonly machineTotalSeconds: number;
}

/** What a process tree used over a run. */
export interface TreeUsage {
  /** Largest sum of resident set sizes (shared pages counted in every process that maps them). */
  readonly peakRssBytes: number;
  /** Largest sum of proportional set sizes (shared pages split between the processes). */
  readonly peakPssBytes: number;
  readonly cpuSamples: readonly CpuSample[];
}

export { listProcessTree, type ProcessEntry };

/** Whether `entry`'s process still runs: same pid and start time, and not a zombie. */
export function isStillRunning(entry: Pick<ProcessEntry, 'pid' | 'startTime'>): boolean {
  const current = readProcessEntry(entry.pid);
  return current !== undefined && current.startTime === entry.startTime && current.state !== 'Z';
}
/**
 * Samples a process tree (the contender's Node process plus its Chromium processes): peak memory,
 * and CPU time over time so CPU per page can be computed for any window. It also remembers every
 * process it saw, so that whatever outlives the run — a browser orphaned by a crashed contender —
 * can be killed by pid afterwards.
 */
export class ProcessTreeSampler {
  private timer: NodeJS.Timeout | undefined;
  private peakRssBytes = 0;
  private peakPssBytes = 0;
  private readonly cpuSamples: CpuSample[] = [];
  private readonly seen = new Map<number, string>();
  private readonly treeCpu = new ProcessTreeCpuCounter();

  constructor(
    private readonly rootPid: number,
    private readonly intervalMs = 250,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  /** Stops sampling (one last sample first) and returns what the tree used. */
  stop(): TreeUsage {
    if (this.timer !== undefined) this.sample();
    clearInterval(this.timer);
    this.timer = undefined;
    return {
      peakRssBytes: this.peakRssBytes,
      peakPssBytes: this.peakPssBytes,
      cpuSamples: [...this.cpuSamples],
    };
  }

  /** SIGKILLs every process seen in the tree that is still alive (same pid and start time). */
  killSurvivors(): number {
    let killedCount = 0;
    for (const [pid, startTime] of this.seen) {
      if (readProcessEntry(pid)?.startTime !== startTime) continue;
      try {
        process.kill(pid, 'SIGKILL');
        killedCount += 1;
      } catch {
        // already gone
      }
    }
    return killedCount;
  }

  private sample(): void {
    const tree = listProcessTree(this.rootPid);
    // Once the root has exited its CPU time is gone with it: keep the last sample that had it.
    if (tree.length === 0) return;
    for (const entry of tree) this.seen.set(entry.pid, entry.startTime);
    const sum = (value: (entry: ProcessEntry) => number) =>
      tree.reduce((total, entry) => total + value(entry), 0);
    this.peakRssBytes = Math.max(
      this.peakRssBytes,
      sum((entry) => entry.rssBytes),
    );
    this.peakPssBytes = Math.max(
      this.peakPssBytes,
      sum((entry) => readPssBytes(entry.pid)),
    );
    const machine = readMachineCpuSeconds();
    this.cpuSamples.push({
      atMs: Date.now(),
      treeCpuSeconds: this.treeCpu.update(tree),
      machineBusySeconds: machine.busy,
      machineTotalSeconds: machine.total,
    });
  }
}
