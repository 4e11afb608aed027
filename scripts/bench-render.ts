/**
 * `npm run bench:render` — throughput, latency and memory of the downloader's render path against
 * Crawlee's PuppeteerCrawler and a bare puppeteer loop, on a client-side-rendered bench site served
 * on loopback (scripts/bench-render/bench-site.ts), all in one run:
 *
 *   - downloader service: POST /v1/render (entry B) through the generated DownloaderClient against
 *     a real downloader process (rate-limit layer, robots check, render, storage); skipped with a
 *     note while the service answers 501;
 *   - render engine only: the fallback row (no service layers);
 *   - Crawlee PuppeteerCrawler and a bare puppeteer loop (the ceiling): same Chromium binary and
 *     flags, same concurrency, same wait condition and per-page work.
 *
 * Each contender runs in its own process tree; every browser and server is stopped at the end,
 * also on failure or Ctrl-C. Exits 1 when a target is missed.
 *
 *   npm run bench:render -- [--pages 120] [--rounds 2] [--contenders service,engine,crawlee,bare]
 *                           [--downloader-arg <flag>]… [--downloader-url <url> --downloader-token <t>]
 */
import { cpus } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import {
  formatResults,
  formatVerdicts,
  judgeTargets,
  MeasuredContender,
} from './bench-render/bench-report';
import {
  BENCH_CONCURRENCY,
  BENCH_HOSTS,
  CHROMIUM_PATH,
  QUIET_WINDOW_CAP_MS,
  QUIET_WINDOW_MS,
  WAIT_SELECTOR,
} from './bench-render/bench-settings';
import { startBenchSite } from './bench-render/bench-site';
import { runContenderInChildProcess } from './bench-render/contender-runner';
import type { ContenderRun } from './bench-render/contender-run';
import type { ChildContenderKind } from './bench-render/contenders/contender-job';
import { runDownloaderService } from './bench-render/contenders/downloader-service';
import { summarizeOriginTraffic } from './bench-render/origin-traffic';
import type { PageRecord } from './bench-render/page-record';
import { computeRunStatistics } from './bench-render/run-statistics';

type ContenderName = 'service' | 'engine' | 'crawlee' | 'bare';

/** The whole benchmark normally takes 2–4 minutes; past this everything is stopped. */
const RUN_BUDGET_MS = 8 * 60_000;

const CONTENDERS: Record<
  ContenderName,
  { label: string; role: MeasuredContender['role']; childKind?: ChildContenderKind }
> = {
  service: { label: 'downloader service (POST /v1/render)', role: 'downloader-service' },
  engine: {
    label: 'render engine only (fallback)',
    role: 'render-engine',
    childKind: 'render-engine',
  },
  crawlee: { label: 'Crawlee PuppeteerCrawler', role: 'crawlee', childKind: 'crawlee' },
  bare: { label: 'bare puppeteer loop (ceiling)', role: 'bare-loop', childKind: 'bare-loop' },
};

interface BenchOptions {
  pages: number;
  rounds: number;
  contenders: ContenderName[];
  downloaderUrl?: string;
  downloaderToken?: string;
  downloaderArg: string[];
}

function parseOptions(): BenchOptions {
  const positiveInteger = (value: string) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > 2000) {
      throw new InvalidArgumentError('expected an integer from 1 to 2000');
    }
    return parsed;
  };
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
      'measured pages per contender over all rounds (each round adds one warm-up page per host)',
      positiveInteger,
      120,
    )
    .option('--rounds <count>', 'rounds; each runs every contender once', positiveInteger, 2)
    .option('--contenders <list>', 'which to run, in order', contenderList, [
      'service',
      'engine',
      'crawlee',
      'bare',
    ] as ContenderName[])
    .option(
      '--downloader-arg <flag>',
      'extra flag for the started downloader process (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
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
function progressPrinter(label: string, total: number): (record: PageRecord) => void {
  const startedAtMs = Date.now();
  let doneCount = 0;
  let failedCount = 0;
  return (record) => {
    doneCount += 1;
    if (!record.result.isSuccess) failedCount += 1;
    if (doneCount % 20 === 0 || doneCount === total) {
      const seconds = ((Date.now() - startedAtMs) / 1000).toFixed(0);
      const failed = failedCount > 0 ? `, ${failedCount} failed` : '';
      console.log(`  ${label}: ${doneCount}/${total} pages${failed} (${seconds} s)`);
    }
  };
}

/** Runs one contender once over `urls`; the page stream reports progress. */
function runContender(
  name: ContenderName,
  urls: readonly string[],
  hosts: readonly string[],
  options: BenchOptions,
  signal: AbortSignal,
): Promise<ContenderRun> {
  const { label, childKind } = CONTENDERS[name];
  const onRecord = progressPrinter(label, urls.length);
  const timeoutMs = 60_000 + urls.length * 2000;
  if (childKind !== undefined) {
    return runContenderInChildProcess(
      { kind: childKind, urls, hosts },
      { label, timeoutMs, onRecord, signal },
    );
  }
  return runDownloaderService(
    urls,
    {
      externalUrl: options.downloaderUrl,
      externalToken: options.downloaderToken,
      extraArguments: options.downloaderArg,
    },
    { label, hosts, onRecord, signal, timeoutMs },
  );
}

async function main(): Promise<number> {
  const options = parseOptions();
  const warmupCount = BENCH_HOSTS.length;
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

  const site = await startBenchSite(BENCH_HOSTS, warmupCount + pagesPerRound);
  try {
    const urls = site.pages.map((page) => page.url);
    const warmupUrls = new Set(urls.slice(0, warmupCount));
    console.log(
      `bench:render — ${site.pages.length} CSR pages over ${site.hosts.length} hosts ` +
        `(${site.hosts[0]}…${site.hosts.at(-1)}); per contender and round ${warmupCount} warm-up + ` +
        `${pagesPerRound} measured pages, ${options.rounds} rounds in alternating order; ` +
        `concurrency ${BENCH_CONCURRENCY}; wait "${WAIT_SELECTOR}" then ${QUIET_WINDOW_MS} ms ` +
        `network quiet (cap ${QUIET_WINDOW_CAP_MS} ms); ${CHROMIUM_PATH}; ${cpus().length} cores`,
    );
    const runs = new Map<ContenderName, ContenderRun[]>(
      options.contenders.map((name) => [name, []]),
    );
    for (let round = 0; round < options.rounds && !abort.signal.aborted; round += 1) {
      // Alternating order (A B C, C B A, …) cancels slow drift of the machine's load.
      const order = round % 2 === 0 ? options.contenders : [...options.contenders].reverse();
      for (const name of order) {
        const previous = runs.get(name) as ContenderRun[];
        if (abort.signal.aborted || previous.some((run) => run.skippedBecause)) continue;
        console.log(`\n▶ round ${round + 1}/${options.rounds}: ${CONTENDERS[name].label}`);
        site.accessLog.clear();
        const run = await runContender(name, urls, site.hosts, options, abort.signal);
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

    const measured: MeasuredContender[] = options.contenders.map((name) => ({
      role: CONTENDERS[name].role,
      label: CONTENDERS[name].label,
      runs: runs.get(name) ?? [],
      statistics: computeRunStatistics(runs.get(name) ?? [], site.pages, warmupUrls),
    }));
    console.log(`\n${formatResults(measured)}\n`);
    if (abort.signal.aborted) {
      console.log(`${String(abort.signal.reason)}: the results above are incomplete; no verdict`);
      return 1;
    }
    const verdicts = judgeTargets(measured);
    console.log(formatVerdicts(verdicts));
    return verdicts.every((verdict) => verdict.isPass) ? 0 : 1;
  } finally {
    await site.stop();
  }
}

main().then(
  (exitCode) => process.exit(exitCode),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
