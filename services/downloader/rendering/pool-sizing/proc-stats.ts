import { readdirSync, readFileSync } from 'node:fs';

/*
 * Readers of Linux's /proc (and cgroup) files: what a process tree and the machine use. The page
 * pool's sizer reads them every second and the benchmarks sample contenders with them. Every
 * reader tolerates a process that exits meanwhile; none throws for a missing optional file.
 */

/** One process as /proc/<pid>/stat shows it. */
export interface ProcessEntry {
  readonly pid: number;
  readonly parentPid: number;
  /** R, S, D, … — Z for a zombie (exited, waiting to be reaped: it runs nothing). */
  readonly state: string;
  /** Clock ticks since boot: tells a process from a later one that got its pid. */
  readonly startTime: string;
  readonly rssBytes: number;
  /** utime + stime: this process's own CPU, in clock ticks. */
  readonly ownCpuTicks: number;
}

const PAGE_SIZE_BYTES = 4096;
/** USER_HZ: /proc reports CPU times in these ticks (100 on Linux). */
export const TICKS_PER_SECOND = 100;

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
      ownCpuTicks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return undefined; // exited meanwhile
  }
}

/** Proportional set size: shared pages split between the processes that map them. */
export function readPssBytes(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Busy and total CPU time of the machine since boot, all cores (/proc/stat). */
export function readMachineCpuSeconds(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal (guest time is already inside user).
  const ticks = fields.slice(0, 8).map(Number);
  const total = ticks.reduce((sum, value) => sum + value, 0);
  return {
    busy: (total - ticks[3] - ticks[4]) / TICKS_PER_SECOND,
    total: total / TICKS_PER_SECOND,
  };
}

/**
 * Microseconds, since boot, during which at least one runnable task waited for a CPU
 * (/proc/pressure/cpu "some total"); undefined where the kernel has no pressure information.
 */
export function readCpuPressureStallMicroseconds(): number | undefined {
  try {
    const match = /^some .*total=(\d+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface MemoryState {
  /** What the kernel can give without swapping (MemAvailable), within a cgroup limit if any. */
  readonly availableBytes: number;
  /** Physical memory, or the cgroup's limit when that is lower. */
  readonly totalBytes: number;
}

function readNumberFile(path: string): number | undefined {
  try {
    const value = Number(readFileSync(path, 'utf8').trim());
    return Number.isFinite(value) ? value : undefined; // "max" (no limit) is NaN
  } catch {
    return undefined;
  }
}

/** The memory limit and usage of this process's cgroup (v2, then v1), when one is set. */
function readCgroupMemory(): { limitBytes: number; usedBytes: number } | undefined {
  const candidates = [
    ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory.current'],
    ['/sys/fs/cgroup/memory/memory.limit_in_bytes', '/sys/fs/cgroup/memory/memory.usage_in_bytes'],
  ];
  for (const [limitPath, usagePath] of candidates) {
    const limitBytes = readNumberFile(limitPath);
    const usedBytes = readNumberFile(usagePath);
    // cgroup v1 says "no limit" with a huge number.
    if (limitBytes !== undefined && usedBytes !== undefined && limitBytes < 2 ** 60) {
      return { limitBytes, usedBytes };
    }
  }
  return undefined;
}

export function readMemoryState(): MemoryState {
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const kilobytes = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(meminfo)?.[1] ?? 0) * 1024;
  let totalBytes = kilobytes('MemTotal');
  let availableBytes = kilobytes('MemAvailable');
  const cgroup = readCgroupMemory();
  if (cgroup !== undefined && cgroup.limitBytes < totalBytes) {
    totalBytes = cgroup.limitBytes;
    availableBytes = Math.min(availableBytes, Math.max(0, cgroup.limitBytes - cgroup.usedBytes));
  }
  return { availableBytes, totalBytes };
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

/**
 * CPU time a process tree has used, processes that exited included: every process's own time
 * (utime + stime), a live one at its current reading and an exited one at its last.
 *
 * The reaped-children counters (cutime + cstime) are not used: which process reaps which is not
 * the tree's shape. Chromium's zygote reaps renderers without accounting (their time reaches no
 * counter), while under the browser containment (a PID namespace) an orphaned renderer is
 * re-parented to Chromium, which reaps it with accounting, and a retired browser's whole subtree
 * lands in the reaped counter of `unshare`, then of Node — after the subtree's processes had
 * already been read one by one. Adding those counters counted that time twice (the tree came out
 * above the whole machine's busy time). What is missed instead is bounded: the CPU a process used
 * after its last reading (one sampling interval at most) and processes that lived only between two
 * readings.
 */
export class ProcessTreeCpuCounter {
  private live = new Map<string, number>();
  private exitedTicks = 0;

  /** Takes a fresh listing of the tree; answers its CPU seconds so far. */
  update(tree: readonly ProcessEntry[]): number {
    const current = new Map(
      tree.map((entry) => [`${entry.pid}/${entry.startTime}`, entry.ownCpuTicks]),
    );
    for (const [key, lastTicks] of this.live) {
      if (!current.has(key)) this.exitedTicks += lastTicks;
    }
    this.live = current;
    let liveTicks = 0;
    for (const ticks of current.values()) liveTicks += ticks;
    return (this.exitedTicks + liveTicks) / TICKS_PER_SECOND;
  }
}
