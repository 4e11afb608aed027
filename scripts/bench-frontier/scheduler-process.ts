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
  /** The frontier's own rebuild from storage ("frontier loaded"), as the scheduler logged it. */
  frontierLoadSeconds: number;
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
  return {
    running,
    processStartSeconds,
    frontierLoadSeconds: Number(loaded?.elapsed_ms ?? Number.NaN) / 1000,
    isRecounted: loaded?.is_recounted === true,
  };
}

/** The scheduler's background reads after start-up, in seconds each (NaN: not made or not done). */
export interface BackgroundLoads {
  /** url_task read into the known-url set. */
  knownUrlSeconds: number;
  /** url_due_index read into due-queue windows, after the known URLs. */
  dueWindowSeconds: number;
}

/**
 * Waits for the scheduler's background reads after start-up (it serves meanwhile, reading storage
 * for what they will hold): url_task into its known-url set, then — in a scheduler that has them
 * (its /metrics shows the gauge; bench:frontier-ab may run an older one) — url_due_index into its
 * due-queue windows. The bench measures the steady state after them, and reports their durations
 * next to the start-up figures. Gives up at `timeoutMs` (NaN for what was not done).
 */
export async function waitForBackgroundLoads(
  scheduler: BenchScheduler,
  timeoutMs: number,
): Promise<BackgroundLoads> {
  const deadline = performance.now() + timeoutMs;
  const knownUrlSeconds = await secondsOfLogLine(scheduler, 'known urls loaded', deadline);
  const metrics = await (await fetch(`${scheduler.running.url}/metrics`)).text();
  const dueWindowSeconds = metrics.includes('scheduler_due_window_domain_count')
    ? await secondsOfLogLine(scheduler, 'due queue windows', deadline) // loaded, or switched off
    : Number.NaN;
  return { knownUrlSeconds, dueWindowSeconds };
}

/** `elapsed_ms` of the first log line starting with `message`, in seconds, once it is logged. */
async function secondsOfLogLine(
  scheduler: BenchScheduler,
  message: string,
  deadline: number,
): Promise<number> {
  for (;;) {
    const line = scheduler.running.logLines.find((candidate) =>
      String(candidate.msg).startsWith(message),
    );
    if (line !== undefined) return Number(line.elapsed_ms) / 1000;
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
  context: { corpus: BenchCorpus; frontierSize: number; budget: Budget },
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
    });
}
