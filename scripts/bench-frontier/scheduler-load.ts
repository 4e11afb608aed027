import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { SchedulerClient } from '../../generated/scheduler';
import type { LeaseResponse } from '../../services/scheduler/frontier/wire-types';
import { percentile, type Budget } from './bench-log';
import type { BenchCorpus } from './bench-corpus';

export interface LoadMeasurement {
  urlsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Domains certainly handed out twice within their interval (as the workers' clocks bound it). */
  intervalViolationCount: number;
  processedCount: number;
  /**
   * Tasks per lease answered (of TASKS_PER_LEASE asked for; empty answers included). Fewer: the row is
   * bound by the domains' intervals, not by the scheduler — too few domains are due.
   */
  tasksPerLease?: number;
  /** CPU the server process used per URL (or job), all its threads: a figure load changes less. */
  cpuMicrosecondsPerUrl?: number;
  /**
   * Of that, the server's main thread — the scheduler's event loop, Redis's command loop: the part
   * that runs one thing at a time, and so bounds the throughput once it is busy all the time.
   */
  mainThreadCpuMicrosecondsPerUrl?: number;
  /**
   * CPU the workers' side used per URL (or job): this bench process, which runs the workers and
   * nothing else while it measures. It shares the two cores with the server.
   */
  clientCpuMicrosecondsPerUrl: number;
  /** The scheduler's group commits during the run (its metrics): where the time of a request goes. */
  commits?: CommitFigures;
  /** The scheduler's event-loop delay and garbage collection during the run. */
  pauses?: PauseFigures;
}

export interface CommitFigures {
  meanMs: number;
  /** URLs reported per commit (each commit also carries leases). */
  urlsPerCommit: number;
  /**
   * Writing behind (LMDB): row versions journalled and rows the checkpoints wrote into the store,
   * per URL reported — how much the checkpoints fold. Undefined without write-behind.
   */
  checkpoint?: {
    versionsPerUrl: number;
    rowWritesPerUrl: number;
    /** Rows the checkpoints wrote per LMDB transaction (LMDB's cost per row falls as it grows). */
    rowsPerTransaction: number;
    /** Acknowledgements that waited for checkpoints (the overlay over its bound), and how long. */
    backPressureWaitCount: number;
    backPressureSeconds: number;
  };
}

interface SchedulerTotals {
  seconds: number;
  count: number;
  checkpointedVersions: number;
  checkpointedRows: number;
  checkpointTransactions: number;
  backPressureWaitCount: number;
  backPressureSeconds: number;
  pauses: PauseFigures;
}

/** What held the scheduler's event loop (its default metrics), to read a lease p99 by. */
export interface PauseFigures {
  /** Event-loop delay over the run (prom-client resets it at every scrape), ms. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Garbage collection during the run: its time, and the pauses of 10 and 100 ms or more. */
  gcSeconds: number;
  gcPausesOver10Ms: number;
  gcPausesOver100Ms: number;
}

/** Sums a metric's samples over every label set (e.g. GC kinds). */
function sumOf(text: string, pattern: RegExp): number {
  let sum = 0;
  for (const match of text.matchAll(pattern)) sum += Number(match[1]);
  return sum;
}

/** A metric without labels, NaN when absent. */
function valueOf(text: string, name: string): number {
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
}

function pauseTotalsOf(text: string): PauseFigures {
  const gcCount = sumOf(text, /^scheduler_nodejs_gc_duration_seconds_count\{[^}]*\} (\S+)$/gm);
  const gcUnder = (le: string) =>
    sumOf(
      text,
      new RegExp(
        `^scheduler_nodejs_gc_duration_seconds_bucket\\{le="${le}",[^}]*\\} (\\S+)$`,
        'gm',
      ),
    );
  return {
    loopDelayP99Ms: valueOf(text, 'scheduler_nodejs_eventloop_lag_p99_seconds') * 1000,
    loopDelayMaxMs: valueOf(text, 'scheduler_nodejs_eventloop_lag_max_seconds') * 1000,
    gcSeconds: sumOf(text, /^scheduler_nodejs_gc_duration_seconds_sum\{[^}]*\} (\S+)$/gm),
    gcPausesOver10Ms: gcCount - gcUnder('0.01'),
    gcPausesOver100Ms: gcCount - gcUnder('0.1'),
  };
}

/**
 * The scheduler's commit-duration histogram, write-behind counters and event-loop and GC figures,
 * read from its /metrics.
 */
async function schedulerTotalsOf(url: string): Promise<SchedulerTotals> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return {
    seconds: valueOf(text, 'scheduler_commit_duration_seconds_sum'),
    count: valueOf(text, 'scheduler_commit_duration_seconds_count'),
    checkpointedVersions: valueOf(text, 'storage_write_behind_row_version_total'),
    checkpointedRows: valueOf(text, 'storage_write_behind_row_write_total'),
    checkpointTransactions: valueOf(text, 'storage_write_behind_checkpoint_transaction_total'),
    backPressureWaitCount: valueOf(text, 'storage_write_behind_back_pressure_wait_total'),
    backPressureSeconds: valueOf(text, 'storage_write_behind_back_pressure_seconds_total'),
    pauses: pauseTotalsOf(text),
  };
}

/** The write-behind figures of a row, per URL reported, from the totals around it. */
function checkpointFiguresOf(
  before: SchedulerTotals,
  after: SchedulerTotals,
  reportedCount: number,
): NonNullable<CommitFigures['checkpoint']> {
  const rowCount = after.checkpointedRows - before.checkpointedRows;
  return {
    versionsPerUrl: (after.checkpointedVersions - before.checkpointedVersions) / reportedCount,
    rowWritesPerUrl: rowCount / reportedCount,
    rowsPerTransaction:
      rowCount / Math.max(1, after.checkpointTransactions - before.checkpointTransactions),
    backPressureWaitCount: after.backPressureWaitCount - before.backPressureWaitCount,
    backPressureSeconds: after.backPressureSeconds - before.backPressureSeconds,
  };
}

/**
 * Waits, at most `timeoutMs`, until the scheduler's write-behind overlay is empty (every write
 * checkpointed; a checkpoint starts at the latest 2 s after a write). At once without write-behind.
 */
async function waitForEmptyOverlay(url: string, timeoutMs = 6_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    if (!(valueOf(text, 'storage_write_behind_overlay_row_count') > 0)) return;
    if (performance.now() > deadline) return;
    await delay(100);
  }
}

export const TASKS_PER_LEASE = 50;

/**
 * URLs a scheduler process serves unmeasured before its first measured run, and BullMQ's jobs
 * likewise (bench:frontier's header says why so many).
 */
export const WARMUP_URLS = 60_000;

/**
 * Runs a row's workers' loop — after the overlay left by earlier rows has drained and before this
 * row's is waited for — e.g. inside a CPU profiler, whose window then holds the load alone.
 */
export type AroundLoad = (load: () => Promise<void>) => Promise<void>;

/**
 * `workerCount` workers each looping GET /v1/lease (task_count 50, or `tasksPerLease`) → POST
 * /v1/report (every task done, `linksPerPage` links each) with the generated client, until
 * `urlBudget` URLs are reported.
 * Every worker checks that no domain was handed out twice within min_interval_ms.
 */
export async function measureScheduler(options: {
  url: string;
  /** The scheduler's process, whose CPU time is read before and after. */
  pid: number;
  token: string;
  corpus: BenchCorpus;
  workerCount: number;
  urlBudget: number;
  frontierSize: number;
  budget: Budget;
  around?: AroundLoad;
  /** task_count of every lease (TASKS_PER_LEASE unless a diagnosis asks otherwise). */
  tasksPerLease?: number;
}): Promise<LoadMeasurement> {
  const { corpus } = options;
  const client = new SchedulerClient({
    baseUrl: options.url,
    token: options.token,
    timeoutMs: 30_000,
  });
  const leaseLatencies: number[] = [];
  /** When the call that last leased each domain was sent. */
  const lastLeasedAt = new Map<string, number>();
  let intervalViolationCount = 0;
  let reportedCount = 0;
  let leaseCount = 0;
  let leasedTaskCount = 0;
  const serial = { next: Math.floor(Math.random() * 1e12) };
  // The checkpoint counters move when a checkpoint ends: with what earlier rows left in the
  // overlay checkpointed first, and this row's tail after it, they cover exactly this row.
  await waitForEmptyOverlay(options.url);
  const serverCpuBefore = serverCpuOf(options.pid);
  const totalsBefore = await schedulerTotalsOf(options.url);
  const clientCpuBefore = process.cpuUsage();
  const began = performance.now();
  const around: AroundLoad = options.around ?? ((load) => load());
  await around(async () => {
    await Promise.all(
      Array.from({ length: options.workerCount }, async (_, worker) => {
        while (reportedCount < options.urlBudget && !options.budget.isOver) {
          const sent = performance.now();
          const lease: LeaseResponse = await client.leaseTasks({
            worker_id: `bench-${worker}`,
            task_count: options.tasksPerLease ?? TASKS_PER_LEASE,
            lease_ttl_seconds: 120,
          });
          const received = performance.now();
          leaseLatencies.push(received - sent);
          for (const task of lease.task_list) {
            // The scheduler decided each lease somewhere between its call being sent and its answer
            // arriving. Two leases of a domain were certainly decided closer than the interval when
            // this answer came less than the interval after the previous call was sent; comparing
            // answer times instead flags a fast answer after a slow one (a commit wait) that was
            // decided in time.
            const previousSent = lastLeasedAt.get(task.domain);
            if (previousSent !== undefined && received - previousSent < corpus.minIntervalMs) {
              intervalViolationCount += 1;
            }
            lastLeasedAt.set(task.domain, sent);
          }
          leaseCount += 1;
          leasedTaskCount += lease.task_list.length;
          if (lease.task_list.length === 0) continue;
          await client.reportLease({
            lease_id: lease.lease_id,
            worker_id: lease.worker_id,
            result_list: corpus.reportOf(lease, serial, options.frontierSize),
          });
          reportedCount += lease.task_list.length;
        }
      }),
    );
  });
  const seconds = (performance.now() - began) / 1000;
  const clientCpuMicroseconds = cpuMicrosecondsSince(clientCpuBefore);
  const serverCpu = serverCpuPerUnit(serverCpuBefore, serverCpuOf(options.pid), reportedCount);
  const totalsAfter = await schedulerTotalsOf(options.url);
  await waitForEmptyOverlay(options.url);
  const checkpointedAfter = await schedulerTotalsOf(options.url);
  const commitCount = totalsAfter.count - totalsBefore.count;
  const sorted = leaseLatencies.sort((left, right) => left - right);
  return {
    urlsPerSecond: reportedCount / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    intervalViolationCount,
    processedCount: reportedCount,
    tasksPerLease: leaseCount === 0 ? undefined : leasedTaskCount / leaseCount,
    ...serverCpu,
    clientCpuMicrosecondsPerUrl: clientCpuMicroseconds / Math.max(1, reportedCount),
    pauses: {
      loopDelayP99Ms: totalsAfter.pauses.loopDelayP99Ms,
      loopDelayMaxMs: totalsAfter.pauses.loopDelayMaxMs,
      gcSeconds: totalsAfter.pauses.gcSeconds - totalsBefore.pauses.gcSeconds,
      gcPausesOver10Ms: totalsAfter.pauses.gcPausesOver10Ms - totalsBefore.pauses.gcPausesOver10Ms,
      gcPausesOver100Ms:
        totalsAfter.pauses.gcPausesOver100Ms - totalsBefore.pauses.gcPausesOver100Ms,
    },
    commits:
      commitCount > 0
        ? {
            meanMs: ((totalsAfter.seconds - totalsBefore.seconds) * 1000) / commitCount,
            urlsPerCommit: reportedCount / commitCount,
            checkpoint: Number.isNaN(checkpointedAfter.checkpointedRows)
              ? undefined
              : checkpointFiguresOf(totalsBefore, checkpointedAfter, reportedCount),
          }
        : undefined,
  };
}

/** Resident memory of a process now and at its peak (Linux /proc), in MiB. */
export function residentMemoryOf(pid: number): { currentMib: number; peakMib: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kibOf = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { currentMib: kibOf('VmRSS') / 1024, peakMib: kibOf('VmHWM') / 1024 };
}

/** CPU time this process (all its threads) used since `before`, in microseconds. */
export function cpuMicrosecondsSince(before: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(before);
  return user + system;
}

/** The server's CPU per URL (or job), all threads, and its main thread's part: `190 (main thread 120)`. */
export function cpuFiguresText(measurement: LoadMeasurement): string {
  return (
    `${measurement.cpuMicrosecondsPerUrl?.toFixed(0) ?? '—'} ` +
    `(main thread ${measurement.mainThreadCpuMicrosecondsPerUrl?.toFixed(0) ?? '—'})`
  );
}

/** The table cells of a server's CPU per URL (or job): all threads, then the main thread. */
export function cpuCells(measurement: LoadMeasurement): string {
  return (
    `${measurement.cpuMicrosecondsPerUrl?.toFixed(0) ?? '—'} | ` +
    `${measurement.mainThreadCpuMicrosecondsPerUrl?.toFixed(0) ?? '—'}`
  );
}

/** CPU a server process has used so far, in milliseconds: all its threads, and its main thread. */
export interface ServerCpu {
  processMs: number;
  mainThreadMs: number;
}

export function serverCpuOf(pid: number): ServerCpu {
  // A process's main thread has the process's id.
  return { processMs: cpuMillisecondsOf(pid), mainThreadMs: cpuMillisecondsOf(pid, pid) };
}

/** What a server used between two readings, per URL (or job) in µs; undefined over none. */
export function serverCpuPerUnit(
  before: ServerCpu,
  after: ServerCpu,
  count: number,
): Pick<LoadMeasurement, 'cpuMicrosecondsPerUrl' | 'mainThreadCpuMicrosecondsPerUrl'> {
  const each = (milliseconds: number) => (count === 0 ? undefined : (milliseconds * 1000) / count);
  return {
    cpuMicrosecondsPerUrl: each(after.processMs - before.processMs),
    mainThreadCpuMicrosecondsPerUrl: each(after.mainThreadMs - before.mainThreadMs),
  };
}

/**
 * CPU time a process has used so far (user + system, Linux /proc), in milliseconds — or one of its
 * threads, by its thread id (a process's main thread has the process's id).
 */
export function cpuMillisecondsOf(pid: number, threadId?: number): number {
  const path = threadId === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${threadId}/stat`;
  const stat = readFileSync(path, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const clockTicksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
}
