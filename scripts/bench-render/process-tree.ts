import {
  listProcessTree,
  readMachineCpuSeconds,
  readProcessEntry,
  readPssBytes,
  ProcessTreeCpuCounter,
  type ProcessEntry,
} from '../../services/downloader/rendering/pool-sizing/proc-stats';
import { byProcessKind, processKindOf, readCommandLine, type ProcessKind } from './process-kind';

/** CPU time used so far, by the tree and by the whole machine (every process, other users too). */
export interface CpuSample {
  readonly atMs: number;
  /** User + system time of every process seen in the tree, exited ones included. */
  readonly treeCpuSeconds: number;
  /** The same, split by what the processes are (process-kind.ts). */
  readonly cpuSecondsByKind: Readonly<Record<ProcessKind, number>>;
  readonly machineBusySeconds: number;
  readonly machineTotalSeconds: number;
}

/** One kind's share of a PSS sample: its processes' sum, and how many processes that was. */
export interface KindPss {
  readonly bytes: number;
  readonly processCount: number;
}

const NO_PSS: KindPss = { bytes: 0, processCount: 0 };

/** What a process tree used over a run. */
export interface TreeUsage {
  /** Largest sum of resident set sizes (shared pages counted in every process that maps them). */
  readonly peakRssBytes: number;
  /** Largest sum of proportional set sizes (shared pages split between the processes). */
  readonly peakPssBytes: number;
  /** That peak split by what the processes are, with how many of each there were. */
  readonly peakPssByKind: Readonly<Record<ProcessKind, KindPss>>;
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
  private peakPssByKind = byProcessKind(() => NO_PSS);
  private readonly cpuSamples: CpuSample[] = [];
  private readonly seen = new Map<number, string>();
  private readonly treeCpu = new ProcessTreeCpuCounter();
  /** One counter per kind, each fed the kind's share of the tree. */
  private readonly kindCpu = byProcessKind(() => new ProcessTreeCpuCounter());
  /** Kind of each process seen, by pid and start time: its command line is read once. */
  private readonly kindOf = new Map<string, ProcessKind>();

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
      peakPssByKind: this.peakPssByKind,
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
    const kinds = tree.map((entry) => this.kindOfEntry(entry));
    this.samplePss(tree, kinds);
    const machine = readMachineCpuSeconds();
    this.cpuSamples.push({
      atMs: Date.now(),
      treeCpuSeconds: this.treeCpu.update(tree),
      cpuSecondsByKind: this.updateKindCpu(tree, kinds),
      machineBusySeconds: machine.busy,
      machineTotalSeconds: machine.total,
    });
  }

  /** Keeps the highest PSS sum and, from the same sample, its split by kind. */
  private samplePss(tree: readonly ProcessEntry[], kinds: readonly ProcessKind[]): void {
    const pssBytes = tree.map((entry) => readPssBytes(entry.pid));
    const total = pssBytes.reduce((sum, bytes) => sum + bytes, 0);
    if (total <= this.peakPssBytes) return;
    this.peakPssBytes = total;
    this.peakPssByKind = byProcessKind((kind) => ({
      bytes: pssBytes.reduce((sum, bytes, index) => (kinds[index] === kind ? sum + bytes : sum), 0),
      processCount: kinds.filter((each) => each === kind).length,
    }));
  }

  private updateKindCpu(
    tree: readonly ProcessEntry[],
    kinds: readonly ProcessKind[],
  ): Record<ProcessKind, number> {
    return byProcessKind((kind) =>
      this.kindCpu[kind].update(tree.filter((_, index) => kinds[index] === kind)),
    );
  }

  private kindOfEntry(entry: ProcessEntry): ProcessKind {
    const key = `${entry.pid}/${entry.startTime}`;
    let kind = this.kindOf.get(key);
    if (kind === undefined) {
      kind = entry.pid === this.rootPid ? 'node' : processKindOf(readCommandLine(entry.pid));
      // A renderer is forked from a zygote and names itself a moment later: read a zygote's
      // command line again until it says something else (its few ticks before are not moved).
      if (kind !== 'zygote') this.kindOf.set(key, kind);
    }
    return kind;
  }
}
