/**
 * `npm run soak:render` — the downloader rendering without a break for a while (10 minutes by
 * default), on the bench site on loopback: a real downloader process with its self-sizing page
 * pool, POST /v1/render from 16 client workers cycling over the bench pages. Every interval (a
 * minute by default) it prints pages/s, the RSS of the downloader's process tree, its Chromium
 * process count and the pool's size; at the end, PASS/FAIL lines: pages/s and RSS flat (every
 * interval after the first within ±10 % of their median), the Chromium process count not growing,
 * no page failed, and no process of the tree left once the downloader stopped.
 *
 *   npm run soak:render -- [--duration-seconds 600] [--interval-seconds 60] [--downloader-arg <flag>]…
 *   (or SOAK_DURATION_SECONDS / SOAK_INTERVAL_SECONDS)
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { DownloaderClient } from '../generated/downloader';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../services/common/testing/service-process';
import {
  listProcessTree,
  readProcessEntry,
  type ProcessEntry,
} from '../services/downloader/rendering/pool-sizing/proc-stats';
import { formatVerdicts, type Verdict } from './bench-render/bench-report';
import {
  BENCH_HOSTS,
  DOWNLOADER_OFFERED_CONCURRENCY,
  RENDER_TIMEOUT_MS,
} from './bench-render/bench-settings';
import { startBenchSite } from './bench-render/bench-site';
import { DOWNLOADER_ARGUMENT_OPTION, integerFrom } from './bench-render/command-line';
import {
  downloaderEnvironment,
  renderThroughEntryB,
} from './bench-render/contenders/downloader-service';
import { judgeFlat, judgeNotGrowing, type SoakInterval } from './soak-render/soak-judgement';
import { removeWorkDirectory } from '../services/common/testing/work-directory';
import { DEFAULT_RECYCLE_AFTER_RENDER_COUNT } from '../services/downloader/rendering/page-pool';

const PAGE_COUNT = 400;
const SAMPLE_INTERVAL_MS = 2000;
/** Time the downloader gets to stop, then its processes must be gone. */
const STOP_GRACE_MS = 15_000;
/** After the downloader exited, how long its processes may take to be gone. */
const SURVIVOR_WAIT_MS = 5000;

interface SoakOptions {
  durationSeconds: number;
  intervalSeconds: number;
  downloaderArg: string[];
}

function parseOptions(): SoakOptions {
  return new Command('soak:render')
    .option(
      '--duration-seconds <seconds>',
      'how long to render (bounded: at most 2 hours)',
      integerFrom(10, 7200),
      Number(process.env.SOAK_DURATION_SECONDS ?? 600),
    )
    .option(
      '--interval-seconds <seconds>',
      'length of one reported interval',
      integerFrom(5, 600),
      Number(process.env.SOAK_INTERVAL_SECONDS ?? 60),
    )
    .option(...DOWNLOADER_ARGUMENT_OPTION)
    .parse(process.argv)
    .opts<SoakOptions>();
}

function isChromium(pid: number): boolean {
  try {
    return /chrom/i.test(readFileSync(`/proc/${pid}/comm`, 'utf8'));
  } catch {
    return false;
  }
}

/** Samples of the current interval. */
class IntervalAccumulator {
  pageCount = 0;
  failedCount = 0;
  private readonly rssSamples: number[] = [];
  private readonly chromiumSamples: number[] = [];
  private readonly poolSizes: number[] = [];

  sample(tree: readonly ProcessEntry[], poolSize: number | undefined): void {
    this.rssSamples.push(tree.reduce((sum, entry) => sum + entry.rssBytes, 0));
    this.chromiumSamples.push(tree.filter((entry) => isChromium(entry.pid)).length);
    if (poolSize !== undefined) this.poolSizes.push(poolSize);
  }

  close(index: number, seconds: number): SoakInterval {
    const mean = (values: number[]) =>
      values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      index,
      pageCount: this.pageCount,
      pagesPerSecond: this.pageCount / seconds,
      failedCount: this.failedCount,
      meanRssBytes: mean(this.rssSamples),
      meanChromiumCount: mean(this.chromiumSamples),
      maxChromiumCount: Math.max(0, ...this.chromiumSamples),
      poolSizes: [...new Set(this.poolSizes)],
    };
  }
}

function formatInterval(interval: SoakInterval, intervalSeconds: number): string {
  const minutes = ((interval.index + 1) * intervalSeconds) / 60;
  return (
    `${String(interval.index + 1).padStart(3)} (${minutes.toFixed(1)} min): ` +
    `${interval.pagesPerSecond.toFixed(2)} pages/s, ` +
    `RSS ${(interval.meanRssBytes / 1024 / 1024).toFixed(0)} MB, ` +
    `Chromium processes ${interval.meanChromiumCount.toFixed(1)} (max ${interval.maxChromiumCount}), ` +
    `pool ${interval.poolSizes.join('/') || '?'}` +
    (interval.failedCount > 0 ? `, ${interval.failedCount} FAILED` : '')
  );
}

/** Pids of the tree still alive (same start time) after the downloader stopped. */
function survivorsOf(seen: ReadonlyMap<number, string>): number[] {
  return [...seen]
    .filter(([pid, startTime]) => readProcessEntry(pid)?.startTime === startTime)
    .map(([pid]) => pid);
}

/** "pid comm state parent" of a process, for the report. */
function describeProcess(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, parentPid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return `${pid} ${name} ${state} (parent ${parentPid})`;
  } catch {
    return `${pid} (gone)`;
  }
}

/** Waits until every process seen in the tree is gone, or the time is up; the ones left. */
async function waitForTreeGone(
  seen: ReadonlyMap<number, string>,
  timeoutMs: number,
): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const survivors = survivorsOf(seen);
    if (survivors.length === 0 || Date.now() > deadline) return survivors;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function main(): Promise<number> {
  const options = parseOptions();
  const abort = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (abort.signal.aborted) process.exit(130);
      console.log(`\n${signal}: stopping …`);
      abort.abort(new Error(signal));
    });
  }
  const site = await startBenchSite(BENCH_HOSTS, PAGE_COUNT);
  const dataDirectory = await mkdtemp(join(tmpdir(), 'soak-render-downloader-'));
  const token = randomBytes(24).toString('hex');
  let downloader: StartedServiceProcess | undefined;
  const seen = new Map<number, string>();
  const intervals: SoakInterval[] = [];
  let survivors: number[] = [];
  let survivorDescriptions: string[] = [];
  try {
    downloader = await startServiceProcess(
      'downloader',
      ['--data-dir', dataDirectory, ...options.downloaderArg],
      // Browsers replaced at the downloader's default: what that costs over time is the soak's
      // to show (the bench keeps replacements out of its windows).
      downloaderEnvironment(site.hosts, token, DEFAULT_RECYCLE_AFTER_RENDER_COUNT),
      30_000,
    );
    const rootPid = downloader.child.pid as number;
    const client = new DownloaderClient({
      baseUrl: downloader.url,
      token,
      timeoutMs: RENDER_TIMEOUT_MS + 15_000,
      maximumAttemptCount: 1,
    });
    console.log(
      `soak:render — ${options.durationSeconds} s on ${PAGE_COUNT} bench pages over ` +
        `${site.hosts.length} loopback hosts, ${DOWNLOADER_OFFERED_CONCURRENCY} client workers, ` +
        `a downloader process (pid ${rootPid}) with its self-sizing pool; a line every ` +
        `${options.intervalSeconds} s`,
    );
    const urls = site.pages.map((page) => page.url);
    const endsAtMs = Date.now() + options.durationSeconds * 1000;
    let current = new IntervalAccumulator();
    let poolSize: number | undefined;
    let poolReason = '';
    const sampleTimer = setInterval(() => {
      const tree = listProcessTree(rootPid);
      for (const entry of tree) seen.set(entry.pid, entry.startTime);
      void client.getPagePool().then(
        (pool) => {
          poolSize = pool.page_count;
          poolReason = pool.pool_size_reason;
        },
        () => undefined,
      );
      current.sample(tree, poolSize);
    }, SAMPLE_INTERVAL_MS);
    const intervalTimer = setInterval(() => {
      const closed = current.close(intervals.length, options.intervalSeconds);
      current = new IntervalAccumulator();
      intervals.push(closed);
      console.log(
        `${formatInterval(closed, options.intervalSeconds)} (last change: ${poolReason})`,
      );
    }, options.intervalSeconds * 1000);
    let nextIndex = 0;
    const worker = async () => {
      while (Date.now() < endsAtMs && !abort.signal.aborted) {
        const url = urls[nextIndex++ % urls.length];
        try {
          const rendered = await renderThroughEntryB(client, url, abort.signal);
          if (!rendered.result.isSuccess) current.failedCount += 1;
        } catch {
          if (abort.signal.aborted) return;
          current.failedCount += 1;
        }
        current.pageCount += 1;
      }
    };
    await Promise.all(Array.from({ length: DOWNLOADER_OFFERED_CONCURRENCY }, worker));
    clearInterval(sampleTimer);
    clearInterval(intervalTimer);
    for (const entry of listProcessTree(rootPid)) seen.set(entry.pid, entry.startTime);
    console.log(`\nstopping the downloader (SIGTERM) …`);
    await downloader.stop(STOP_GRACE_MS);
    downloader = undefined;
    survivors = await waitForTreeGone(seen, SURVIVOR_WAIT_MS);
    survivorDescriptions = survivors.map(describeProcess);
  } finally {
    await downloader?.stop(STOP_GRACE_MS);
    for (const pid of survivorsOf(seen)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await site.stop();
    await removeWorkDirectory(dataDirectory);
  }
  if (abort.signal.aborted) {
    console.log('aborted: no verdict');
    return 1;
  }
  const verdicts: Verdict[] = [
    judgeFlat(
      'pages/s',
      intervals,
      (interval) => interval.pagesPerSecond,
      (value) => value.toFixed(2),
    ),
    judgeFlat(
      'RSS',
      intervals,
      (interval) => interval.meanRssBytes,
      (value) => `${(value / 1024 / 1024).toFixed(0)} MB`,
    ),
    judgeNotGrowing('Chromium processes', intervals, (interval) => interval.meanChromiumCount),
    {
      isPass: intervals.every((interval) => interval.failedCount === 0) && intervals.length > 0,
      text: `failed pages: ${intervals.reduce((sum, interval) => sum + interval.failedCount, 0)} of ${intervals.reduce((sum, interval) => sum + interval.pageCount, 0)}`,
    },
    {
      isPass: survivors.length === 0 && seen.size > 1,
      text:
        `processes left ${SURVIVOR_WAIT_MS / 1000} s after the downloader stopped: ${survivors.length} ` +
        `(of ${seen.size} seen in its tree)` +
        (survivorDescriptions.length > 0 ? `: ${survivorDescriptions.join('; ')}` : ''),
    },
  ];
  console.log(`\n${formatVerdicts(verdicts)}`);
  return verdicts.every((verdict) => verdict.isPass) ? 0 : 1;
}

main().then(
  (exitCode) => process.exit(exitCode),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
