import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { log, type Budget } from './bench-log';
import type { BenchCorpus } from './bench-corpus';
import { measureScheduler, type AroundLoad, type LoadMeasurement } from './scheduler-load';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../../services/common/testing/service-process';

export interface BenchScheduler {
  running: StartedServiceProcess;
  /** Spawn → "service listening" (module loading included). */
  processStartSeconds: number;
  /** The open of its store ("scheduler storage opened": a resident one's snapshot read included). */
  storageOpenSeconds: number;
  /** That open's parts as logged (`snapshot_read_ms`, `store_open_ms`, …), for the bench's log. */
  storageOpenParts: string;
  /** The frontier rebuild's phases as its log line gives them ('rule read 480 ms, …'). */
  frontierLoadParts: string;
  /** The frontier's own rebuild from storage ("frontier loaded"), as the scheduler logged it. */
  frontierLoadSeconds: number;
  /**
   * URLs the frontier held at the start, as the rebuild counted them: a stage's seeds and the links
   * earlier stages' reports found (one new URL per page), so more than the stage's size.
   */
  urlCount: number;
  isRecounted: boolean;
}

export const BENCH_TOKEN = 'bench-frontier-token-0123456789';

/** Starts the scheduler as its own process on `dataDirectory` (and `environment`'s storage). */
export async function startBenchScheduler(options: {
  dataDirectory: string;
  environment?: NodeJS.ProcessEnv;
  /** Opens the scheduler's inspector on this loopback port (for profileWhile). */
  inspectPort?: number;
  /** Another source tree to run the scheduler from (bench:frontier-ab's base side). */
  sourceRoot?: string;
  /** Node flags that override the scheduler's own (bench:frontier-ab's per-side settings). */
  nodeFlags?: readonly string[];
}): Promise<BenchScheduler> {
  const startedAt = performance.now();
  const running = await startServiceProcess(
    'scheduler',
    ['--data-dir', options.dataDirectory, '--domain-in-flight-cap', '2'],
    { SCHEDULER_TOKEN: BENCH_TOKEN, LOG_LEVEL: 'info', ...options.environment },
    300_000,
    [
      ...(options.inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${options.inspectPort}`]),
      ...(options.nodeFlags ?? []),
    ],
    options.sourceRoot,
  );
  const processStartSeconds = (performance.now() - startedAt) / 1000;
  const loaded = running.logLines.find((line) => line.msg === 'frontier loaded');
  const opened = running.logLines.find((line) => line.msg === 'scheduler storage opened');
  return {
    running,
    processStartSeconds,
    storageOpenSeconds: Number(opened?.elapsed_ms ?? Number.NaN) / 1000,
    storageOpenParts: partsOf(opened),
    frontierLoadSeconds: Number(loaded?.elapsed_ms ?? Number.NaN) / 1000,
    urlCount: Number(loaded?.url_count ?? Number.NaN),
    frontierLoadParts: partsOf(loaded),
    isRecounted: loaded?.is_recounted === true,
  };
}

/**
 * The `…_ms` fields of a log line but its elapsed_ms, and the process's faults and involuntary
 * switches (resource-use.ts), as text: 'snapshot read 789 ms, …, process cpu 1210 ms, minor page
 * fault 61234, …'.
 */
function partsOf(line: Record<string, unknown> | undefined): string {
  return Object.entries(line ?? {})
    .flatMap(([name, value]) => {
      if (name.endsWith('_ms') && name !== 'elapsed_ms') {
        return [`${name.replace(/_ms$/, '').replace(/_/g, ' ')} ${String(value)} ms`];
      }
      if (/_(fault|switch)_count$/.test(name)) {
        return [`${name.replace(/_count$/, '').replace(/_/g, ' ')} ${String(value)}`];
      }
      return [];
    })
    .join(', ');
}

/**
 * Waits for the scheduler's background read of url_task into its known-url set (it serves
 * meanwhile, de-duplicating links from storage until then): the bench measures the steady state
 * after it, and reports its duration next to the start-up figures. Resolves to seconds since the
 * process was ready, or NaN when it did not finish within `timeoutMs`.
 */
export async function waitForKnownUrls(
  scheduler: BenchScheduler,
  timeoutMs: number,
): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const loaded = scheduler.running.logLines.find((line) =>
      String(line.msg).startsWith('known urls loaded'),
    );
    if (loaded !== undefined) return Number(loaded.elapsed_ms) / 1000;
    if (performance.now() > deadline) return Number.NaN;
    await delay(50);
  }
}

/**
 * Prints the scheduler's error lines (its log is kept in memory): a run that failed on an
 * `internal_error` answer shows the cause, not only "see the service log".
 */
export function logSchedulerErrors(scheduler: BenchScheduler): void {
  for (const line of scheduler.running.logLines) {
    if (Number(line.level) >= 50) log(`  scheduler error: ${JSON.stringify(line)}`);
  }
}

/** One row of the bench load: `workerCount` workers until `urlBudget` URLs are reported. */
export type SchedulerLoad = (
  workerCount: number,
  urlBudget: number,
  around?: AroundLoad,
) => Promise<LoadMeasurement>;

/**
 * The bench load against a started scheduler: `workerCount` workers leasing and reporting until
 * `urlBudget` URLs are reported (scheduler-load.ts).
 */
export function loadAgainst(
  scheduler: BenchScheduler,
  context: { corpus: BenchCorpus; frontierSize: number; budget: Budget; tasksPerLease?: number },
): SchedulerLoad {
  return (workerCount, urlBudget, around) =>
    measureScheduler({
      url: scheduler.running.url,
      pid: scheduler.running.child.pid as number,
      token: BENCH_TOKEN,
      corpus: context.corpus,
      workerCount,
      urlBudget,
      frontierSize: context.frontierSize,
      budget: context.budget,
      around,
      tasksPerLease: context.tasksPerLease,
    });
}
