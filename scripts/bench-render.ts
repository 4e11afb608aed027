/**
 * `npm run bench:render` — throughput, latency, CPU and memory of the downloader's render path
 * against Crawlee's PuppeteerCrawler and a bare puppeteer loop, each at its best, on a
 * client-side-rendered bench site served on loopback (scripts/bench-render/bench-site.ts):
 *
 *   - downloader service: POST /v1/render (entry B) through the generated DownloaderClient against
 *     a real downloader process (rate-limit layer, robots check, render, storage), its page pool
 *     sizing itself under a brake of 16, offered 16 renders at once;
 *   - Crawlee PuppeteerCrawler with its autoscaled pool (1–16, tuned to decide fast);
 *   - a bare puppeteer loop swept over concurrency 2–16: its best is the peer;
 *   - render engine only (fallback row, fixed 4 pages; not run by default).
 * All share the Chromium binary and flags, the wait condition and the per-page work. Then a
 * many-domain round: 120 loopback hosts, min_interval_ms 1000, pages host by host — judged by the
 * origin's own log (no two requests to a host closer than the interval).
 *
 * Each contender runs in its own process tree; every browser and server is stopped at the end,
 * also on failure or Ctrl-C. Exits 1 when a target is missed.
 *
 *   npm run bench:render -- [--pages 360] [--rounds 2] [--contenders service,crawlee,bare]
 *                           [--bare-sweep 2,4,6,8,12,16] [--many-domain-hosts 120]
 *                           [--downloader-arg <flag>]… [--downloader-url <url> --downloader-token <t>]
 *                           [--api-pages 600] [--api-render-pages 120] [--api-only]
 *
 * Last, the api-path round (v2): pages/s of `api` lease tasks vs rendering the same pages of the
 * demo's client-rendered hosts (scripts/bench-render/api-path-round.ts), target api ≥ 10× render.
 */
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import {
  formatResults,
  formatVerdicts,
  judgeTargets,
  MeasuredContender,
} from './bench-render/bench-report';
import {
  API_ROUND_API_TASK_COUNT,
  API_ROUND_RENDER_TASK_COUNT,
  BARE_LOOP_SWEEP,
  BENCH_HOSTS,
  CHROMIUM_PATH,
  ENGINE_FALLBACK_CONCURRENCY,
  MANY_DOMAIN_HOST_COUNT,
  MAX_BENCH_CONCURRENCY,
  QUIET_WINDOW_CAP_MS,
  QUIET_WINDOW_MS,
  SETTLE_MS,
  WAIT_SELECTOR,
} from './bench-render/bench-settings';
import { saveAndPrintBusiestProfile } from './bench-frontier/cpu-profile-summary';
import { startBenchSite } from './bench-render/bench-site';
import {
  DOWNLOADER_ARGUMENT_OPTION,
  integerFrom,
  integerListFrom,
} from './bench-render/command-line';
import { runContenderInChildProcess } from './bench-render/contender-runner';
import type { ContenderRun } from './bench-render/contender-run';
import type { ChildContenderKind } from './bench-render/contenders/contender-job';
import { runDownloaderService } from './bench-render/contenders/downloader-service';
import { runApiPathRound } from './bench-render/api-path-round';
import { runManyDomainRound } from './bench-render/many-domain-round';
import { summarizeOriginTraffic } from './bench-render/origin-traffic';
import type { PageRecord } from './bench-render/page-record';
import { computeRunStatistics } from './bench-render/run-statistics';

type ContenderName = 'service' | 'engine' | 'crawlee' | 'bare';

/** The whole benchmark normally takes 12–25 minutes; past this everything is stopped. */
const RUN_BUDGET_MS = 40 * 60_000;
/** Warm-up pages per host and round: browser start, robots.txt, JIT. */
const WARMUP_PAGES_PER_HOST = 4;
/**
 * … and for a contender that sizes its own pool, the time to do so: its best is the size it
 * settles at, not the climb to it. The downloader's pool needs ~45 s to reach 16 pages (CPU
 * headroom to ~10, then throughput-probe.ts): with 4 pages per host (~3 s) its rounds measured the
 * climb (4 → 11 within a round), with 40 the last probes. 60 (480 pages) lasted those 45 s at
 * ~10 pages/s on the full browser; on the headless shell (~14 pages/s) they lasted ~35 s and the
 * pool reached 16 pages ~42 s into each round, well inside the measured pages (bench:render,
 * 2026-12-02). 90 per host (720 pages) is ~50 s at 14 pages/s. Crawlee's AutoscaledPool gets the
 * same warm-up.
 */
const SELF_SIZING_WARMUP_PAGES_PER_HOST = 90;

const CONTENDERS: Record<
  ContenderName,
  {
    label: string;
    role: MeasuredContender['role'];
    childKind?: ChildContenderKind;
    /** Sizes its own pool while running (the longer warm-up). */
    isSelfSizing?: boolean;
  }
> = {
  service: {
    label: 'downloader service (POST /v1/render, self-sized)',
    role: 'downloader-service',
    isSelfSizing: true,
  },
  engine: {
    label: `render engine only (fallback, ${ENGINE_FALLBACK_CONCURRENCY} pages)`,
    role: 'render-engine',
    childKind: 'render-engine',
  },
  crawlee: {
    label: 'Crawlee PuppeteerCrawler (autoscaled)',
    role: 'crawlee',
    childKind: 'crawlee',
    isSelfSizing: true,
  },
  bare: { label: 'bare puppeteer loop', role: 'bare-loop', childKind: 'bare-loop' },
};

interface BenchOptions {
  pages: number;
  rounds: number;
  contenders: ContenderName[];
  bareSweep: number[];
  manyDomainHosts: number;
  apiPages: number;
  apiRenderPages: number;
  apiOnly: boolean;
  cacheablePages: boolean;
  downloaderUrl?: string;
  downloaderToken?: string;
  downloaderArg: string[];
  downloaderCpuProfile?: string;
}

function parseOptions(): BenchOptions {
  const contenderList = (value: string) => {
    const names = value.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !(name in CONTENDERS));
    if (unknown.length > 0)
      throw new InvalidArgumentError(`unknown contender: ${unknown.join(', ')}`);
    return names as ContenderName[];
  };
  return new Command('bench:render')
    .option(
      '--pages <count>',
      'measured pages per contender over all rounds (each round adds warm-up pages)',
      integerFrom(1, 4000),
      360,
    )
    .option('--rounds <count>', 'rounds; each runs every contender once', integerFrom(1, 20), 2)
    .option('--contenders <list>', 'which to run, in order', contenderList, [
      'service',
      'crawlee',
      'bare',
    ] as ContenderName[])
    .option(
      '--bare-sweep <list>',
      'concurrencies the bare loop runs at (its best is the peer)',
      integerListFrom(1, MAX_BENCH_CONCURRENCY),
      [...BARE_LOOP_SWEEP],
    )
    .option(
      '--many-domain-hosts <count>',
      'hosts of the many-domain politeness round (0 skips it)',
      integerFrom(0, 1000),
      MANY_DOMAIN_HOST_COUNT,
    )
    .option(
      '--api-pages <count>',
      'api tasks of the api-path round (0 skips it)',
      integerFrom(0, 20_000),
      API_ROUND_API_TASK_COUNT,
    )
    .option(
      '--api-render-pages <count>',
      'render tasks of the same pages in the api-path round',
      integerFrom(1, 4000),
      API_ROUND_RENDER_TASK_COUNT,
    )
    .option('--api-only', 'run only the api-path round', false)
    .option(
      '--cacheable-pages',
      'serve the item pages cacheable (no-cache) instead of no-store, as most sites serve HTML',
      false,
    )
    .option(...DOWNLOADER_ARGUMENT_OPTION)
    .option(
      '--downloader-cpu-profile <directory>',
      'write CPU profiles of the started downloader (main rounds) there and print the busiest one',
    )
    .option(
      '--downloader-url <url>',
      'use a running downloader (its allow-list must be exactly the bench hosts)',
    )
    .option(
      '--downloader-token <token>',
      'its token (env DOWNLOADER_TOKEN)',
      process.env.DOWNLOADER_TOKEN,
    )
    .parse(process.argv)
    .opts<BenchOptions>();
}

/** Prints progress every 20 pages. */
export function progressPrinter(label: string, total: number): (record: PageRecord) => void {
  const startedAtMs = Date.now();
  let doneCount = 0;
  let failedCount = 0;
  return (record) => {
    doneCount += 1;
    if (!record.result.isSuccess) failedCount += 1;
    if (doneCount % 40 === 0 || doneCount === total) {
      const seconds = ((Date.now() - startedAtMs) / 1000).toFixed(0);
      const failed = failedCount > 0 ? `, ${failedCount} failed` : '';
      console.log(`  ${label}: ${doneCount}/${total} pages${failed} (${seconds} s)`);
    }
  };
}

/** One contender run: a name, and for the bare loop the concurrency of this sweep point. */
interface RunKey {
  readonly name: ContenderName;
  readonly concurrency?: number;
}

function labelOf(key: RunKey): string {
  const { label } = CONTENDERS[key.name];
  return key.concurrency === undefined ? label : `${label} @ ${key.concurrency}`;
}

function keyText(key: RunKey): string {
  return key.concurrency === undefined ? key.name : `${key.name}@${key.concurrency}`;
}

/** Runs one contender once over `urls`; the page stream reports progress. */
function runContender(
  key: RunKey,
  urls: readonly string[],
  hosts: readonly string[],
  options: BenchOptions,
  signal: AbortSignal,
): Promise<ContenderRun> {
  const { childKind } = CONTENDERS[key.name];
  const label = labelOf(key);
  const onRecord = progressPrinter(label, urls.length);
  const timeoutMs = 60_000 + urls.length * 2000;
  if (childKind !== undefined) {
    return runContenderInChildProcess(
      {
        kind: childKind,
        urls,
        hosts,
        concurrency: key.concurrency ?? ENGINE_FALLBACK_CONCURRENCY,
      },
      { label, timeoutMs, onRecord, signal },
    );
  }
  return runDownloaderService(
    urls,
    {
      externalUrl: options.downloaderUrl,
      externalToken: options.downloaderToken,
      extraArguments: options.downloaderArg,
      nodeArguments:
        options.downloaderCpuProfile === undefined
          ? []
          : ['--cpu-prof', `--cpu-prof-dir=${resolve(options.downloaderCpuProfile)}`],
    },
    { label, hosts, onRecord, signal, timeoutMs },
  );
}

/** With --downloader-cpu-profile: the busiest profile's summary, printed and saved beside it. */
function printDownloaderProfile(options: BenchOptions): void {
  if (options.downloaderCpuProfile === undefined) return;
  const directory = resolve(options.downloaderCpuProfile);
  const isSummarised = saveAndPrintBusiestProfile(
    directory,
    join(directory, 'cpu-profile-summary.txt'),
    (fileName) => `downloader CPU profile (${fileName})`,
  );
  if (!isSummarised) console.log(`no downloader CPU profile in ${directory}`);
  console.log('');
}

/** Every run of one round, in order: the bare loop once per sweep point. */
function runKeysOf(options: BenchOptions): RunKey[] {
  return options.contenders.flatMap((name): RunKey[] =>
    name === 'bare' ? options.bareSweep.map((concurrency) => ({ name, concurrency })) : [{ name }],
  );
}

async function main(): Promise<number> {
  const options = parseOptions();
  if (options.apiOnly) return runApiRound(options, new AbortController().signal);
  const fixedWarmupCount = BENCH_HOSTS.length * WARMUP_PAGES_PER_HOST;
  const warmupCount = BENCH_HOSTS.length * SELF_SIZING_WARMUP_PAGES_PER_HOST;
  /** A contender's pages: its warm-up (a fixed pool: the last few warm-up pages), then the rest. */
  const urlsOf = (urls: readonly string[], key: RunKey) =>
    urls.slice(CONTENDERS[key.name].isSelfSizing ? 0 : warmupCount - fixedWarmupCount);
  const pagesPerRound = Math.ceil(options.pages / options.rounds);
  const abort = new AbortController();
  // A hung contender is stopped by its own timeout; this bounds the whole run whatever happens.
  const budget = setTimeout(
    () => abort.abort(new Error(`run budget of ${RUN_BUDGET_MS / 60_000} minutes exceeded`)),
    RUN_BUDGET_MS,
  );
  budget.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (abort.signal.aborted) process.exit(130);
      console.log(`\n${signal}: stopping every browser and server …`);
      abort.abort(new Error(signal));
    });
  }

  const site = await startBenchSite(BENCH_HOSTS, warmupCount + pagesPerRound, {
    isPageCacheable: options.cacheablePages,
  });
  let exitCode = 0;
  try {
    const urls = site.pages.map((page) => page.url);
    const warmupUrls = new Set(urls.slice(0, warmupCount));
    const pageCaching = options.cacheablePages ? 'cacheable' : 'no-store';
    const keys = runKeysOf(options);
    console.log(
      `bench:render — ${site.pages.length} CSR pages (${pageCaching}) over ${site.hosts.length} hosts ` +
        `(${site.hosts[0]}…${site.hosts.at(-1)}); per contender and round ${warmupCount} warm-up ` +
        `pages for a self-sizing pool, ${fixedWarmupCount} for a fixed one, then ` +
        `${pagesPerRound} measured pages, ${options.rounds} rounds in alternating order; each at ` +
        `its best: the downloader self-sized (brake ${MAX_BENCH_CONCURRENCY}), Crawlee autoscaled ` +
        `(1–${MAX_BENCH_CONCURRENCY}), the bare loop swept over ${options.bareSweep.join(', ')}; ` +
        `wait "${WAIT_SELECTOR}", then settled (${SETTLE_MS} ms, at most ${QUIET_WINDOW_MS} ms ` +
        `network quiet, cap ${QUIET_WINDOW_CAP_MS} ms); ${CHROMIUM_PATH}; ${cpus().length} cores`,
    );
    const runs = new Map<string, ContenderRun[]>(keys.map((key) => [keyText(key), []]));
    for (let round = 0; round < options.rounds && !abort.signal.aborted; round += 1) {
      // Alternating order (A B C, C B A, …) cancels slow drift of the machine's load.
      const order = round % 2 === 0 ? keys : [...keys].reverse();
      for (const key of order) {
        const previous = runs.get(keyText(key)) as ContenderRun[];
        if (abort.signal.aborted || previous.some((run) => run.skippedBecause)) continue;
        console.log(`\n▶ round ${round + 1}/${options.rounds}: ${labelOf(key)}`);
        site.accessLog.clear();
        const run = await runContender(key, urlsOf(urls, key), site.hosts, options, abort.signal);
        const traffic = summarizeOriginTraffic(site.accessLog.list());
        previous.push(
          run.records.length > 0
            ? { ...run, notes: [...(run.notes ?? []), `round ${round + 1}: ${traffic}`] }
            : run,
        );
        if (run.skippedBecause) console.log(`  skipped: ${run.skippedBecause}`);
        if (run.error) console.log(`  error: ${run.error.split('\n')[0]}`);
      }
    }

    const measured: MeasuredContender[] = keys.map((key) => {
      const keyRuns = runs.get(keyText(key)) ?? [];
      return {
        role: CONTENDERS[key.name].role,
        label: labelOf(key),
        concurrency: key.concurrency,
        runs: keyRuns,
        statistics: computeRunStatistics(keyRuns, site.pages, warmupUrls),
      };
    });
    console.log(`\n${formatResults(measured)}\n`);
    printDownloaderProfile(options);
    if (abort.signal.aborted) {
      console.log(`${String(abort.signal.reason)}: the results above are incomplete; no verdict`);
      return 1;
    }
    const verdicts = judgeTargets(measured);
    console.log(formatVerdicts(verdicts));
    if (!verdicts.every((verdict) => verdict.isPass)) exitCode = 1;
  } finally {
    await site.stop();
  }
  if (options.manyDomainHosts > 0 && options.contenders.includes('service')) {
    const manyDomainVerdicts = await runManyDomainRound(options.manyDomainHosts, {
      downloaderArguments: options.downloaderArg,
      signal: abort.signal,
    });
    console.log(formatVerdicts(manyDomainVerdicts));
    if (!manyDomainVerdicts.every((verdict) => verdict.isPass)) exitCode = 1;
  }
  if ((await runApiRound(options, abort.signal)) !== 0) exitCode = 1;
  return exitCode;
}

/** The api-path round (v2): its verdicts printed; 1 when one fails, 0 otherwise or skipped. */
async function runApiRound(options: BenchOptions, signal: AbortSignal): Promise<number> {
  if (options.apiPages === 0) return 0;
  const verdicts = await runApiPathRound({
    apiTaskCount: options.apiPages,
    renderTaskCount: options.apiRenderPages,
    downloaderArguments: options.downloaderArg,
    signal,
  });
  console.log(formatVerdicts(verdicts));
  return verdicts.every((verdict) => verdict.isPass) ? 0 : 1;
}

main().then(
  (exitCode) => process.exit(exitCode),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
