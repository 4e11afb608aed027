import type { BenchPage } from './bench-page-set';
import type { ContenderRun } from './contender-run';
import type { PageRecord } from './page-record';
import { byProcessKind, type ProcessKind } from './process-kind';
import type { CpuSample, KindPss, TreeUsage } from './process-tree';

/** The numbers of one contender's measured pages (warm-up pages left out), over all rounds. */
export interface RunStatistics {
  readonly pageCount: number;
  readonly failedCount: number;
  readonly pagesPerSecond: number;
  readonly p50LatencyMs: number;
  readonly p95LatencyMs: number;
  /** Expected XHRs (from the page set) missing from the network logs (a failed page lacks all). */
  readonly missingXhrCount: number;
  readonly expectedXhrCount: number;
  readonly overLimitAnswerCount: number;
  /** Undefined when the process tree could not be watched (an external downloader). */
  readonly peakRssBytes?: number;
  readonly peakPssBytes?: number;
  /** The highest round's peak split by process kind (what holds the memory). */
  readonly peakPssByKind?: Readonly<Record<ProcessKind, KindPss>>;
  /** CPU time of the contender's process tree during the measured windows, per measured page. */
  readonly cpuMsPerPage?: number;
  /** cpuMsPerPage split by what the processes are (the contender's Node, Chromium's renderers, …). */
  readonly cpuMsPerPageByKind?: Readonly<Record<ProcessKind, number>>;
  /** How busy the whole machine was during the measured windows (all cores, all processes). */
  readonly machineBusyPercent?: number;
  /** What went wrong, page by page, for the report. */
  readonly problems: readonly string[];
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sortedValues: readonly number[], fraction: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sortedValues.length);
  return sortedValues[Math.min(sortedValues.length, Math.max(1, rank)) - 1];
}

/** Which expected XHR URLs a page's network log lacks (a failed page lacks them all). */
export function missingXhrUrls(record: PageRecord, page: BenchPage): string[] {
  const seen = new Set(record.result.isSuccess ? record.result.xhrUrls : []);
  return page.expectedXhrUrls.filter((url) => !seen.has(url));
}

interface CpuUsed {
  tree: number;
  byKind: Record<ProcessKind, number>;
  machineBusy: number;
  machineTotal: number;
}

/** CPU used between two moments, from the samples just outside them. */
function cpuBetween(
  samples: readonly CpuSample[],
  fromMs: number,
  toMs: number,
): CpuUsed | undefined {
  if (samples.length < 2) return undefined;
  const before = samples.filter((sample) => sample.atMs <= fromMs).at(-1) ?? samples[0];
  const after = samples.find((sample) => sample.atMs >= toMs) ?? (samples.at(-1) as CpuSample);
  return {
    tree: after.treeCpuSeconds - before.treeCpuSeconds,
    byKind: byProcessKind((kind) => after.cpuSecondsByKind[kind] - before.cpuSecondsByKind[kind]),
    machineBusy: after.machineBusySeconds - before.machineBusySeconds,
    machineTotal: after.machineTotalSeconds - before.machineTotalSeconds,
  };
}

/** Highest value over the rounds; undefined when no round could be watched. */
function highest(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
}

/** What a page's record says is wrong with it, if anything. */
function problemOf(record: PageRecord, page: BenchPage): { missing: number; text?: string } {
  const missing = missingXhrUrls(record, page);
  if (!record.result.isSuccess) {
    return {
      missing: missing.length,
      text: `${record.url}: ${record.result.failure.split('\n')[0]}`,
    };
  }
  if (missing.length === 0) return { missing: 0 };
  return {
    missing: missing.length,
    text: `${record.url}: network_log lacks ${missing.join(', ')}`,
  };
}

/**
 * Throughput is measured over the measured pages only: in each round, their count and the time
 * from the first one's start to the last one's end (the warm-up pages — browser start, robots.txt
 * fetches, first-use JIT — run before them in the same stream, so that window is steady state);
 * pages/s is the sum of counts over the sum of windows. CPU is taken over the same windows;
 * latencies are pooled over the rounds.
 */
export function computeRunStatistics(
  runs: readonly ContenderRun[],
  pages: readonly BenchPage[],
  warmupUrls: ReadonlySet<string>,
): RunStatistics | undefined {
  const pageByUrl = new Map(pages.map((page) => [page.url, page]));
  const rounds = runs
    .map((run) => ({ run, measured: run.records.filter((record) => !warmupUrls.has(record.url)) }))
    .filter((round) => round.measured.length > 0);
  if (rounds.length === 0) return undefined;

  let windowMs = 0;
  const cpuPerRound: (CpuUsed | undefined)[] = [];
  for (const { run, measured } of rounds) {
    const fromMs = Math.min(...measured.map((record) => record.startedAtMs));
    const toMs = Math.max(...measured.map((record) => record.finishedAtMs));
    windowMs += toMs - fromMs;
    cpuPerRound.push(cpuBetween(run.usage?.cpuSamples ?? [], fromMs, toMs));
  }
  const cpu = cpuPerRound.every((used) => used !== undefined)
    ? (cpuPerRound as CpuUsed[]).reduce((sum, used) => ({
        tree: sum.tree + used.tree,
        byKind: byProcessKind((kind) => sum.byKind[kind] + used.byKind[kind]),
        machineBusy: sum.machineBusy + used.machineBusy,
        machineTotal: sum.machineTotal + used.machineTotal,
      }))
    : undefined;

  const measured = rounds.flatMap((round) => round.measured);
  const latencies = measured
    .map((record) => record.finishedAtMs - record.startedAtMs)
    .sort((left, right) => left - right);
  const problems: string[] = [];
  let missingXhrCount = 0;
  let expectedXhrCount = 0;
  for (const record of measured) {
    const page = pageByUrl.get(record.url);
    if (page === undefined) continue;
    expectedXhrCount += page.expectedXhrUrls.length;
    const problem = problemOf(record, page);
    missingXhrCount += problem.missing;
    if (problem.text !== undefined) problems.push(problem.text);
  }
  return {
    pageCount: measured.length,
    failedCount: measured.filter((record) => !record.result.isSuccess).length,
    pagesPerSecond: windowMs > 0 ? measured.length / (windowMs / 1000) : 0,
    p50LatencyMs: percentile(latencies, 0.5),
    p95LatencyMs: percentile(latencies, 0.95),
    missingXhrCount,
    expectedXhrCount,
    overLimitAnswerCount: measured.reduce(
      (sum, record) => sum + (record.overLimitAnswerCount ?? 0),
      0,
    ),
    peakRssBytes: highest(runs.map((run) => run.usage?.peakRssBytes)),
    peakPssBytes: highest(runs.map((run) => run.usage?.peakPssBytes)),
    peakPssByKind: runs
      .map((run) => run.usage)
      .reduce<TreeUsage | undefined>(
        (top, usage) =>
          usage !== undefined && usage.peakPssBytes > (top?.peakPssBytes ?? -1) ? usage : top,
        undefined,
      )?.peakPssByKind,
    cpuMsPerPage: cpu ? (cpu.tree * 1000) / measured.length : undefined,
    cpuMsPerPageByKind: cpu
      ? byProcessKind((kind) => (cpu.byKind[kind] * 1000) / measured.length)
      : undefined,
    machineBusyPercent:
      cpu && cpu.machineTotal > 0 ? (100 * cpu.machineBusy) / cpu.machineTotal : undefined,
    problems,
  };
}
