import { readdirSync, readFileSync } from 'node:fs';

/** CPU time used so far, by the tree and by the whole machine (every process, other users too). */
export interface CpuSample {
  readonly atMs: number;
  /** User + system time of the tree's live processes and of the children they reaped. */
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

export interface ProcessEntry {
  readonly pid: number;
  readonly parentPid: number;
  /** R, S, D, … — Z for a zombie (exited, waiting to be reaped: it runs nothing). */
  readonly state: string;
  /** Clock ticks since boot: tells a process from a later one that got its pid. */
  readonly startTime: string;
  readonly rssBytes: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  readonly cpuTicks: number;
}

const PAGE_SIZE_BYTES = 4096;
/** USER_HZ: /proc reports CPU times in these ticks (100 on Linux). */
const TICKS_PER_SECOND = 100;

export function readProcessEntry(pid: number): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may itself contain spaces and parentheses).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      pid,
      parentPid: Number(fields[1]),
      state: fields[0],
      startTime: fields[19],
      rssBytes: Number(fields[21]) * PAGE_SIZE_BYTES,
      cpuTicks: fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0),
    };
  } catch {
    return undefined; // exited meanwhile
  }
}

function readPssBytes(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Busy and total CPU time of the machine since boot, all cores (/proc/stat). */
function readMachineCpuSeconds(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const ticks = fields.slice(0, 8).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  return {
    busy: (total - ticks[3] - ticks[4]) / TICKS_PER_SECOND,
    total: total / TICKS_PER_SECOND,
  };
}

/** `rootPid` and all its descendants, from one pass over /proc. */
export function listProcessTree(rootPid: number): ProcessEntry[] {
  const entries = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProcessEntry(Number(name)))
    .filter((entry): entry is ProcessEntry => entry !== undefined);
  const childrenOf = new Map<number, ProcessEntry[]>();
  for (const entry of entries) {
    childrenOf.set(entry.parentPid, [...(childrenOf.get(entry.parentPid) ?? []), entry]);
  }
  const root = entries.find((entry) => entry.pid === rootPid);
  const tree: ProcessEntry[] = [];
  for (const queue = root ? [root] : []; queue.length > 0;) {
    const entry = queue.shift() as ProcessEntry;
    tree.push(entry);
    queue.push(...(childrenOf.get(entry.pid) ?? []));
  }
  return tree;
}

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
      treeCpuSeconds: sum((entry) => entry.cpuTicks) / TICKS_PER_SECOND,
      machineBusySeconds: machine.busy,
      machineTotalSeconds: machine.total,
    });
  }
}
