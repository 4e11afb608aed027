/**
 * `npm run bench:crawl` — does the scheduler ↔ downloader loop keep the page pool busy within the
 * rules? A real scheduler and a real downloader process (lease loop on, self-sizing pool) crawl
 * the bench site's item pages served on the demo site's hosts (127.0.0.2–4), seeded as wide as
 * the run can use at the allowed rate (each page also links to the next items on the other
 * hosts). Per scenario (one min_interval_ms for every host) it prints the pages/s the origins saw — robots.txt and
 * documents, by their own access log — as a fraction of what the rules allow (hosts ×
 * 1000 / min_interval_ms), the pool's use, how often the hosts sat at the scheduler's per-domain
 * in-flight cap (the other rule: at the cap, a host waits for a report however far its interval
 * allows), and the spacing violations (must be 0).
 *
 * Target: ≥ 0.8 of the allowed rate when rendering is not the bottleneck. A scenario whose pool
 * stayed full (rendering-bound) is reported, not judged. It also prints the machine's CPU use, the
 * mean render time and how often a host's in-flight slot turned over, which together say where a
 * host's time went: a host at its cap waits for a render, and a saturated CPU makes each render
 * longer without filling the pool.
 *
 *   npm run bench:crawl -- [--min-interval-ms 1000,200] [--warmup-seconds 15] [--measure-seconds 45]
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { DownloaderClient } from '../generated/downloader';
import { SchedulerClient } from '../generated/scheduler';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../services/common/testing/service-process';
import { formatContractTime } from '../services/downloader/rendering/contract-time';
import { readMachineCpuSeconds } from '../services/downloader/rendering/pool-sizing/proc-stats';
import { formatVerdicts, type Verdict } from './bench-render/bench-report';
import { CHROMIUM_PATH, WAIT_SELECTOR } from './bench-render/bench-settings';
import { startBenchSite } from './bench-render/bench-site';
import {
  DOWNLOADER_ARGUMENT_OPTION,
  integerFrom,
  integerListFrom,
} from './bench-render/command-line';
import {
  findSpacingViolations,
  initiatedRequestGaps,
  isInitiatedRequest,
} from './bench-render/origin-traffic';
import { percentile } from './bench-render/run-statistics';
import { DEFAULT_DEMO_HOSTS } from './demo-site/demo-site';
import { samplesOf } from './system/prometheus-samples';
import type { OriginAccessLogEntry } from './demo-site/origin-access-log';
import { removeWorkDirectory } from '../services/common/testing/work-directory';

/** Enough pages that no scenario runs out of new links (15 pages/s for a few minutes). */
const PAGE_COUNT = 4000;
/** Pool use at or above this: rendering, not the rules, was the bottleneck. */
const RENDERING_BOUND_RATIO = 0.9;
const TARGET_FRACTION = 0.8;
/** POST /v1/seeds takes at most this many URLs (CONTRACT.md). */
const MAX_SEEDS_PER_REQUEST = 1000;
/**
 * The scheduler's per-domain in-flight cap, set here rather than left to its default so the
 * figure below names the rule the run had: a host sitting at it cannot be leased more, however
 * far its interval allows.
 */
const DOMAIN_IN_FLIGHT_CAP = 2;

interface CrawlOptions {
  minIntervalMs: number[];
  warmupSeconds: number;
  measureSeconds: number;
  downloaderArg: string[];
}

function parseOptions(): CrawlOptions {
  return new Command('bench:crawl')
    .option(
      '--min-interval-ms <list>',
      'one scenario per min_interval_ms (every host gets it)',
      integerListFrom(50, 60_000),
      [1000, 200],
    )
    .option('--warmup-seconds <seconds>', 'before measuring', integerFrom(1, 300), 15)
    .option('--measure-seconds <seconds>', 'the measured window', integerFrom(5, 600), 45)
    .option(...DOWNLOADER_ARGUMENT_OPTION)
    .parse(process.argv)
    .opts<CrawlOptions>();
}

interface ScenarioResult {
  readonly minIntervalMs: number;
  readonly allowedPagesPerSecond: number;
  readonly pagesPerSecond: number;
  readonly meanBusyRatio: number;
  /** The whole machine's CPU busy share over the measured window (all cores). */
  readonly machineBusyRatio: number;
  /** Mean time of a leased render, dispatch to outcome (the downloader's fetch duration). */
  readonly meanRenderMs: number;
  readonly poolSizes: readonly number[];
  /** Share of the per-second samples, over all hosts, with a host at the in-flight cap. */
  readonly atInFlightCapRatio: number;
  /** Gaps between a host's consecutive requests in the measured window, ms: p10, p50, p90. */
  readonly gapPercentilesMs: readonly [number, number, number];
  readonly spacingViolationCount: number;
  readonly leaseCallSummary: string;
}

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

async function metricsText(downloader: StartedServiceProcess, token: string): Promise<string> {
  const response = await fetch(`${downloader.url}/metrics`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.text();
}

/** `downloader_lease_call_total{result="…"}` of /metrics, summarized. */
function leaseCallSummary(text: string): string {
  const counts = samplesOf(text, 'downloader_lease_call_total').map(
    (sample) => `${sample.labels.result} ${sample.value}`,
  );
  return `lease calls: ${counts.join(', ') || 'none'}`;
}

/** The lease loop's rendered fetches so far: their count and summed duration (/metrics). */
function leasedRenderTotals(text: string): { count: number; seconds: number } {
  const leasedRenders = (name: string) =>
    samplesOf(text, name).find(
      ({ labels }) => labels.entry_name === 'lease_loop' && labels.is_rendered === 'true',
    )?.value ?? 0;
  return {
    count: leasedRenders('downloader_fetch_duration_seconds_count'),
    seconds: leasedRenders('downloader_fetch_duration_seconds_sum'),
  };
}

async function runScenario(minIntervalMs: number, options: CrawlOptions): Promise<ScenarioResult> {
  const hosts = DEFAULT_DEMO_HOSTS;
  const site = await startBenchSite(hosts, PAGE_COUNT);
  const workDirectory = await mkdtemp(join(tmpdir(), 'bench-crawl-'));
  const schedulerToken = randomBytes(24).toString('hex');
  const downloaderToken = randomBytes(24).toString('hex');
  const started: StartedServiceProcess[] = [];
  try {
    const scheduler = await startServiceProcess(
      'scheduler',
      [
        '--data-dir',
        join(workDirectory, 'scheduler'),
        '--domain-in-flight-cap',
        String(DOMAIN_IN_FLIGHT_CAP),
      ],
      { SCHEDULER_TOKEN: schedulerToken, DOWNLOADER_TOKEN: downloaderToken },
    );
    started.push(scheduler);
    const downloader = await startServiceProcess(
      'downloader',
      ['--data-dir', join(workDirectory, 'downloader'), ...options.downloaderArg],
      {
        DOWNLOADER_TOKEN: downloaderToken,
        SCHEDULER_URL: scheduler.url,
        SCHEDULER_TOKEN: schedulerToken,
        DOWNLOADER_WORKER_ID: 'bench-crawl',
        DOWNLOADER_ALLOW_DESTINATIONS: hosts.join(','),
        CHROMIUM_PATH,
      },
      30_000,
    );
    started.push(downloader);
    const schedulerClient = new SchedulerClient({ baseUrl: scheduler.url, token: schedulerToken });
    const downloaderClient = new DownloaderClient({
      baseUrl: downloader.url,
      token: downloaderToken,
    });
    await schedulerClient.submitRules({
      rule_list: hosts.map((host) => ({
        domain: host,
        verdict: 'csr' as const,
        undetermined_reason: null,
        min_interval_ms: minIntervalMs,
        wait_selector: WAIT_SELECTOR,
        priority_rank: 0,
        robots_txt: null,
        verified_at: formatContractTime(new Date()),
      })),
    });
    const allowedPagesPerSecond = (hosts.length * 1000) / minIntervalMs;
    // A frontier wide enough for the whole run at the allowed rate, seeded up front. Links alone
    // (each page links to the next three items) keep only a few URLs due at a time: every page
    // would wait for the report of the one before it, and the run would measure that chain.
    const seedCount = Math.min(
      PAGE_COUNT,
      Math.ceil(allowedPagesPerSecond * (options.warmupSeconds + options.measureSeconds) * 1.5),
    );
    for (let first = 0; first < seedCount; first += MAX_SEEDS_PER_REQUEST) {
      await schedulerClient.submitSeeds({
        seed_list: site.pages
          .slice(first, Math.min(seedCount, first + MAX_SEEDS_PER_REQUEST))
          .map((page) => ({ url: page.url })),
      });
    }
    console.log(
      `\n▶ min_interval_ms ${minIntervalMs} on ${hosts.length} hosts: the rules allow ` +
        `${allowedPagesPerSecond.toFixed(1)} pages/s; ${options.warmupSeconds} s warm-up, ` +
        `${options.measureSeconds} s measured`,
    );
    await sleep(options.warmupSeconds * 1000);
    const rendersBefore = leasedRenderTotals(await metricsText(downloader, downloaderToken));
    const cpuBefore = readMachineCpuSeconds();
    const fromMs = Date.now();
    const busyRatios: number[] = [];
    const poolSizes = new Set<number>();
    const capSamples = { atCap: 0, total: 0 };
    for (let second = 0; second < options.measureSeconds; second += 1) {
      await sleep(1000);
      const pool = await downloaderClient.getPagePool().catch(() => undefined);
      if (pool !== undefined) {
        busyRatios.push(pool.busy_page_count / pool.page_count);
        poolSizes.add(pool.page_count);
      }
      const summary = await schedulerClient
        .getFrontierSummary({ limit: 100 })
        .catch(() => undefined);
      for (const host of hosts) {
        const row = summary?.domain_list.find((domain) => domain.domain === host);
        if (row === undefined) continue;
        capSamples.total += 1;
        if (row.in_flight_count >= DOMAIN_IN_FLIGHT_CAP) capSamples.atCap += 1;
      }
      if ((second + 1) % 15 === 0) {
        const count = site.accessLog
          .list()
          .filter((entry) => entry.receivedAtMs >= fromMs && isInitiatedRequest(entry)).length;
        console.log(
          `  ${second + 1} s: ${(count / (second + 1)).toFixed(2)} pages/s so far, pool ${pool?.page_count ?? '?'}`,
        );
      }
    }
    const toMs = Date.now();
    const cpuAfter = readMachineCpuSeconds();
    const metricsAfter = await metricsText(downloader, downloaderToken);
    const rendersAfter = leasedRenderTotals(metricsAfter);
    const renderCount = rendersAfter.count - rendersBefore.count;
    const entries = site.accessLog.list();
    const measuredCount = entries.filter(
      (entry) =>
        entry.receivedAtMs >= fromMs && entry.receivedAtMs < toMs && isInitiatedRequest(entry),
    ).length;
    return {
      minIntervalMs,
      allowedPagesPerSecond,
      pagesPerSecond: measuredCount / ((toMs - fromMs) / 1000),
      meanBusyRatio:
        busyRatios.length === 0
          ? 0
          : busyRatios.reduce((sum, value) => sum + value, 0) / busyRatios.length,
      machineBusyRatio: (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total),
      meanRenderMs:
        renderCount === 0
          ? Number.NaN
          : ((rendersAfter.seconds - rendersBefore.seconds) * 1000) / renderCount,
      poolSizes: [...poolSizes].sort((left, right) => left - right),
      atInFlightCapRatio: capSamples.total === 0 ? 0 : capSamples.atCap / capSamples.total,
      gapPercentilesMs: gapPercentiles(
        entries.filter((entry) => entry.receivedAtMs >= fromMs && entry.receivedAtMs < toMs),
      ),
      spacingViolationCount: findSpacingViolations(entries, minIntervalMs).length,
      leaseCallSummary: leaseCallSummary(metricsAfter),
    };
  } finally {
    for (const service of started.reverse()) await service.stop(15_000);
    await site.stop();
    await removeWorkDirectory(workDirectory);
  }
}

function gapPercentiles(
  entries: readonly OriginAccessLogEntry[],
): readonly [number, number, number] {
  const gaps = initiatedRequestGaps(entries)
    .map((gap) => gap.gapMs)
    .sort((left, right) => left - right);
  return [percentile(gaps, 0.1), percentile(gaps, 0.5), percentile(gaps, 0.9)];
}

function verdictsOf(result: ScenarioResult): Verdict[] {
  const fraction = result.pagesPerSecond / result.allowedPagesPerSecond;
  const isRenderingBound = result.meanBusyRatio >= RENDERING_BOUND_RATIO;
  // A host at its cap frees a slot only when a leased page is reported: while the cap binds, a
  // slot turns over every cap / (that host's pages/s) — the lease-to-report cycle.
  const slotCycle =
    result.atInFlightCapRatio >= 0.5
      ? `, a slot turning over every ${(
          (DOMAIN_IN_FLIGHT_CAP * DEFAULT_DEMO_HOSTS.length * 1000) /
          result.pagesPerSecond
        ).toFixed(0)} ms`
      : '';
  const figures =
    `min_interval_ms ${result.minIntervalMs}: ${result.pagesPerSecond.toFixed(2)} of ` +
    `${result.allowedPagesPerSecond.toFixed(1)} allowed pages/s = ${fraction.toFixed(2)} ` +
    `(pool ${result.poolSizes.join('/')} pages, ${(result.meanBusyRatio * 100).toFixed(0)} % busy; ` +
    `machine CPU ${(result.machineBusyRatio * 100).toFixed(0)} % busy; ` +
    `hosts at their in-flight cap of ${DOMAIN_IN_FLIGHT_CAP} ${(result.atInFlightCapRatio * 100).toFixed(0)} % of the time${slotCycle}; ` +
    `a render ${result.meanRenderMs.toFixed(0)} ms (mean); ` +
    `a host's requests ${result.gapPercentilesMs.join(' / ')} ms apart (p10 / p50 / p90); ` +
    `${result.leaseCallSummary})`;
  return [
    isRenderingBound
      ? { isPass: true, text: `${figures} — rendering-bound (pool full): reported, not judged` }
      : { isPass: fraction >= TARGET_FRACTION, text: `${figures} (target ≥ ${TARGET_FRACTION})` },
    {
      isPass: result.spacingViolationCount === 0,
      text: `min_interval_ms ${result.minIntervalMs}: ${result.spacingViolationCount} spacing violations in the origins' log`,
    },
  ];
}

async function main(): Promise<number> {
  const options = parseOptions();
  console.log(
    `bench:crawl — scheduler + downloader (lease loop, self-sizing pool) crawling bench pages on ` +
      `${DEFAULT_DEMO_HOSTS.join(', ')}; scenarios min_interval_ms ${options.minIntervalMs.join(', ')}`,
  );
  const verdicts: Verdict[] = [];
  for (const minIntervalMs of options.minIntervalMs) {
    verdicts.push(...verdictsOf(await runScenario(minIntervalMs, options)));
  }
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
