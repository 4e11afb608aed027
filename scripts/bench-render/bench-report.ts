import { TARGET_RATIO_TO_BARE_LOOP, TARGET_RATIO_TO_CRAWLEE } from './bench-settings';
import type { ContenderRun } from './contender-run';
import { PROCESS_KINDS, type ProcessKind } from './process-kind';
import type { RunStatistics } from './run-statistics';
import type { KindPss } from './process-tree';

export type ContenderRole = 'downloader-service' | 'render-engine' | 'crawlee' | 'bare-loop';

/** A contender over all rounds. */
export interface MeasuredContender {
  readonly role: ContenderRole;
  readonly label: string;
  /** Its fixed concurrency (one point of the bare loop's sweep); undefined when it sizes itself. */
  readonly concurrency?: number;
  readonly runs: readonly ContenderRun[];
  /** Undefined when the contender produced no measured page. */
  readonly statistics?: RunStatistics;
}

export interface Verdict {
  readonly isPass: boolean;
  readonly text: string;
}

const MEGABYTE = 1024 * 1024;
const EXAMPLES_SHOWN = 5;

function formatTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[column]),
        )
        .join('  '),
    )
    .join('\n');
}

function megabytes(bytes: number): string {
  return (bytes / MEGABYTE).toFixed(0);
}

function rowOf({ label, statistics }: MeasuredContender): string[] {
  if (statistics === undefined) return [label, ...Array<string>(10).fill('-')];
  const optional = (value: number | undefined, format: (value: number) => string) =>
    value === undefined ? 'n/a' : format(value);
  return [
    label,
    String(statistics.pageCount),
    String(statistics.failedCount),
    statistics.pagesPerSecond.toFixed(2),
    statistics.p50LatencyMs.toFixed(0),
    statistics.p95LatencyMs.toFixed(0),
    optional(statistics.peakRssBytes, megabytes),
    optional(statistics.peakPssBytes, megabytes),
    optional(statistics.cpuMsPerPage, (value) => value.toFixed(0)),
    optional(statistics.machineBusyPercent, (value) => value.toFixed(0)),
    `${statistics.missingXhrCount}/${statistics.expectedXhrCount}`,
  ];
}

/** "node 12.7, browser 26.9, renderer 44.8, …" — every kind, in PROCESS_KINDS order. */
function formatCpuByKind(byKind: Readonly<Record<ProcessKind, number>>): string {
  return PROCESS_KINDS.map((kind) => `${kind} ${byKind[kind].toFixed(1)}`).join(', ');
}

/** "node 120 (1), renderer 410 (4), …": MB and process count of each kind present at the peak. */
function formatPssByKind(byKind: Readonly<Record<ProcessKind, KindPss>>): string {
  return PROCESS_KINDS.filter((kind) => byKind[kind].processCount > 0)
    .map((kind) => `${kind} ${megabytes(byKind[kind].bytes)} (${byKind[kind].processCount})`)
    .join(', ');
}

/** The results table, then per contender what kept it from running and what went wrong. */
export function formatResults(contenders: readonly MeasuredContender[]): string {
  const header = [
    'contender',
    'pages',
    'failed',
    'pages/s',
    'p50 ms',
    'p95 ms',
    'peak RSS MB',
    'peak PSS MB',
    'CPU ms/page',
    'machine busy %',
    'XHRs missing',
  ];
  const lines = [formatTable([header, ...contenders.map(rowOf)])];
  for (const { label, runs, statistics } of contenders) {
    const details = [
      ...new Set([
        ...runs.flatMap((run) => (run.skippedBecause ? [`not run: ${run.skippedBecause}`] : [])),
        ...runs.flatMap((run, round) =>
          run.error ? [`error (round ${round + 1}): ${run.error}`] : [],
        ),
        ...runs.flatMap((run) => run.notes ?? []),
      ]),
      ...(statistics?.cpuMsPerPageByKind
        ? [`CPU ms/page by process: ${formatCpuByKind(statistics.cpuMsPerPageByKind)}`]
        : []),
      ...(statistics?.peakPssByKind
        ? [`peak PSS MB by process (processes): ${formatPssByKind(statistics.peakPssByKind)}`]
        : []),
      ...(statistics?.overLimitAnswerCount
        ? [`429 answers: ${statistics.overLimitAnswerCount}`]
        : []),
      ...(statistics?.problems.slice(0, EXAMPLES_SHOWN) ?? []),
    ];
    if (details.length > 0) lines.push(`\n${label}:\n  ${details.join('\n  ')}`);
  }
  lines.push(
    '\npages/s: measured pages over their render windows, summed over the rounds (warm-up pages ' +
      'excluded); latency: request start to end of render. Memory: highest peak over the rounds ' +
      "of the contender's process tree (Node + Chromium), sampled every 250 ms — RSS counts shared " +
      'pages once per process, PSS splits them (split by process as at its peak sample). ' +
      'CPU ms/page: CPU time of that tree during the ' +
      "measured windows per measured page (split by process: the contender's Node, Chromium's " +
      'browser, renderer, gpu, utility — the network service — and zygote processes). ' +
      'machine busy %: all cores, all processes (other work ' +
      'on the machine included) during those windows.',
  );
  return lines.join('\n');
}

function ratioVerdict(
  downloader: MeasuredContender,
  peer: MeasuredContender | undefined,
  target: number,
  peerName: string,
): Verdict {
  const peerRate = peer?.statistics?.pagesPerSecond ?? 0;
  if (peerRate === 0) return { isPass: false, text: `no ${peerName} result to compare with` };
  const ratio = (downloader.statistics?.pagesPerSecond ?? 0) / peerRate;
  return {
    isPass: ratio >= target,
    text: `${downloader.label} / ${peerName}: ${ratio.toFixed(2)}× pages/s (target ≥ ${target}×)`,
  };
}

/** "at most the peer's" for a figure where less is better; FAIL when either is unknown. */
function atMostVerdict(
  what: string,
  own: number | undefined,
  peer: number | undefined,
  peerName: string,
  format: (value: number) => string,
): Verdict {
  if (own === undefined || peer === undefined) {
    return {
      isPass: false,
      text: `${what}: not measured (${peerName} ${peer === undefined ? 'missing' : 'ok'})`,
    };
  }
  return {
    isPass: own <= peer,
    text: `${what}: ${format(own)} vs ${peerName} ${format(peer)} (target ≤)`,
  };
}

/** The bare loop's sweep point with the most pages/s. */
export function bestOfSweep(
  contenders: readonly MeasuredContender[],
): MeasuredContender | undefined {
  return contenders
    .filter((contender) => contender.role === 'bare-loop' && contender.statistics?.pageCount)
    .sort(
      (left, right) =>
        (right.statistics?.pagesPerSecond ?? 0) - (left.statistics?.pagesPerSecond ?? 0),
    )[0];
}

/**
 * The targets, judged on the full downloader path when it ran, else on the engine-only
 * fallback row (said so in every line): against Crawlee autoscaled and the bare loop's best
 * sweep point.
 */
export function judgeTargets(contenders: readonly MeasuredContender[]): Verdict[] {
  const byRole = (role: ContenderRole) => contenders.find((contender) => contender.role === role);
  const bareBest = bestOfSweep(contenders);
  const crawlee = byRole('crawlee');
  const service = byRole('downloader-service');
  const downloader = service?.statistics?.pageCount ? service : byRole('render-engine');
  if (downloader?.statistics === undefined) {
    return [
      { isPass: false, text: 'no downloader result (neither the service nor the engine ran)' },
    ];
  }
  const statistics = downloader.statistics;
  const bareName = `bare loop's best (${bareBest?.concurrency ?? '?'} pages)`;
  const verdicts = [
    ratioVerdict(downloader, crawlee, TARGET_RATIO_TO_CRAWLEE, 'Crawlee'),
    ratioVerdict(downloader, bareBest, TARGET_RATIO_TO_BARE_LOOP, bareName),
    atMostVerdict(
      `${downloader.label}: CPU ms/page`,
      statistics.cpuMsPerPage,
      bareBest?.statistics?.cpuMsPerPage,
      bareName,
      (value) => value.toFixed(0),
    ),
    atMostVerdict(
      `${downloader.label}: peak PSS MB`,
      statistics.peakPssBytes,
      crawlee?.statistics?.peakPssBytes,
      'Crawlee',
      (value) => (value / MEGABYTE).toFixed(0),
    ),
    {
      isPass: statistics.failedCount === 0 && statistics.pageCount > 0,
      text: `${downloader.label}: ${statistics.failedCount} of ${statistics.pageCount} pages failed`,
    },
    {
      isPass: statistics.missingXhrCount === 0 && statistics.expectedXhrCount > 0,
      text:
        `${downloader.label}: every XHR of every page answered in its network_log — ` +
        `${statistics.missingXhrCount} of ${statistics.expectedXhrCount} missing`,
    },
  ];
  if (downloader !== service) {
    return verdicts.map((verdict) => ({
      ...verdict,
      text: `${verdict.text} [fallback: the full service path did not run]`,
    }));
  }
  return verdicts;
}

export function formatVerdicts(verdicts: readonly Verdict[]): string {
  return verdicts
    .map((verdict) => `${verdict.isPass ? 'PASS' : 'FAIL'}  ${verdict.text}`)
    .join('\n');
}
