import { freeLoopbackPort } from '../services/common/testing/free-loopback-port';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { SchedulerClient } from '../generated/scheduler';
import type { StartedServiceProcess } from '../services/common/testing/service-process';
import { DrillDownloader } from './reliability/drill-fleet';
import {
  counterInconsistenciesOf,
  duplicateFetchCountOf,
  leakedProfilesOf,
  outboxRowCountOf,
  spacingViolationsOf,
  urlOutcomeOf,
} from './reliability/drill-measurements';
import { printDrillSummary, type DrillFigures } from './reliability/drill-summary';
import { runCommandInLoopbackNamespace } from './reliability/loopback-namespace';
import {
  newServiceTokens,
  startDemoSite,
  startService,
  type ServiceStart,
  writeServiceLog,
} from './reliability/system-under-test';

/*
 * `npm run drill`: the kill/outage drill as a repeatable command. Inside a loopback-only network
 * namespace: the demo site, a scheduler and downloaders as real processes crawling seeded pages;
 * N × kill -9 of a downloader mid-lease (restarted on its data each time), kill -9 of the
 * scheduler with renders in flight and an outage of a chosen length, SIGTERM of a downloader
 * mid-lease, then a second downloader until every URL is final. Prints what was lost, fetched
 * twice, left behind or broken, with PASS/FAIL per target; exits 1 when a target fails.
 */

interface DrillOptions {
  cycles: string;
  outageSeconds: string;
  urlsPerHost: string;
  minIntervalMs: string;
  quick: boolean;
  keep: boolean;
}

const ORPHAN_GRACE_MS = 1000;
const WAIT_FOR_RENDERS_MS = 30_000;

function say(line: string): void {
  console.log(`drill: ${line}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `condition` holds; false when `timeoutMs` passed first. */
async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) return true;
    await sleep(100);
  }
  return false;
}

async function main(): Promise<number> {
  const options = new Command('drill')
    .description(
      'kill/outage drill of the scheduler and downloaders inside a loopback-only namespace',
    )
    .option('--cycles <n>', 'kill -9 cycles of a downloader mid-lease', '10')
    .option('--outage-seconds <n>', 'how long the scheduler stays down after its kill -9', '8')
    .option('--urls-per-host <n>', 'seeded pages per demo host (three hosts)', '150')
    .option('--min-interval-ms <n>', "the demo hosts' min_interval_ms", '250')
    .option(
      '--quick',
      'the short form make test runs (2 cycles, 4 s outage, 30 pages per host)',
      false,
    )
    .option('--keep', 'keep the work directory (service logs, data) afterwards', false)
    .parse(process.argv)
    .opts<DrillOptions>();
  const cycles = options.quick ? 2 : Number(options.cycles);
  const outageMs = (options.quick ? 4 : Number(options.outageSeconds)) * 1000;
  const urlsPerHost = options.quick ? 30 : Number(options.urlsPerHost);
  const minIntervalMs = Number(options.minIntervalMs);
  // Leases outlive the outage with room to spare: an outage shorter than a lease's remaining life
  // must end with no stale report.
  const leaseTtlSeconds = Math.max(30, Math.ceil(outageMs / 1000) + 20);

  const workDirectory = mkdtempSync(join(tmpdir(), 'drill-'));
  // Chromium's and puppeteer's temporary files land here, so any leftover is the drill's own.
  const temporaryDirectory = join(workDirectory, 'tmp');
  mkdirSync(temporaryDirectory);
  process.env.TMPDIR = temporaryDirectory;
  const demo = await startDemoSite({ crawlDelaySeconds: 0 });
  const tokens = newServiceTokens();
  let scheduler: StartedServiceProcess | undefined;
  const schedulerRuns: StartedServiceProcess[] = [];
  const downloaders: DrillDownloader[] = [];
  const stopAll = async () => {
    await Promise.all(
      downloaders.map((downloader) => downloader.process && downloader.stopGracefully()),
    );
    await scheduler?.stop();
    await demo.stop();
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  let shouldKeep = options.keep;
  try {
    const base: ServiceStart = { workDirectory, tokens, demo };
    // One port for every run of the scheduler: the downloaders find it again after the outage.
    const schedulerPort = await freeLoopbackPort();
    const startScheduler = async () => {
      scheduler = await startService('scheduler', base, {
        argumentList: [
          '--port',
          String(schedulerPort),
          '--maintenance-interval-ms',
          '200',
          // One request per domain in flight, whichever downloader holds it: two downloaders keep
          // their own rate limits, the scheduler keeps them apart.
          '--domain-in-flight-cap',
          '1',
        ],
      });
      schedulerRuns.push(scheduler);
      return scheduler;
    };
    await startScheduler();
    const schedulerUrl = (scheduler as StartedServiceProcess).url;
    const client = new SchedulerClient({ baseUrl: schedulerUrl, token: tokens.scheduler });
    const seedUrls = demo.baseUrls.flatMap((baseUrl, hostIndex) =>
      Array.from(
        { length: urlsPerHost },
        // 400–1,300 ms pages: renders are in flight most of the time, so kills land mid-lease.
        (_, index) =>
          `${baseUrl}/slow?delay_ms=${400 + ((index * 7 + hostIndex * 3) % 10) * 100}&page=${index}`,
      ),
    );
    await client.submitRules({
      rule_list: demo.hosts.map((domain) => ({
        domain,
        verdict: 'csr',
        undetermined_reason: null,
        min_interval_ms: minIntervalMs,
        wait_selector: null,
        priority_rank: 0,
        robots_txt: null,
        verified_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      })),
    });
    for (let start = 0; start < seedUrls.length; start += 1000) {
      await client.submitSeeds({
        seed_list: seedUrls.slice(start, start + 1000).map((url) => ({ url })),
      });
    }
    say(
      `${seedUrls.length} pages seeded on ${demo.hosts.join(', ')} (min_interval_ms ${minIntervalMs}); ` +
        `leases of ${leaseTtlSeconds} s; work in ${workDirectory}`,
    );
    const downloaderStart: ServiceStart = { ...base, schedulerUrl };
    const settings = { leaseTtlSeconds, pagePoolSize: 4, leaseTaskCount: 4 };
    const first = new DrillDownloader('drill-a', downloaderStart, settings);
    downloaders.push(first);
    await first.launch();
    say('downloader drill-a crawling');

    const rendersInFlight = (downloader: DrillDownloader) =>
      waitFor(async () => (await downloader.inFlightCount()) > 0, WAIT_FOR_RENDERS_MS);

    // 1. kill -9 mid-lease, N times.
    let orphanCount = 0;
    const orphans: string[] = [];
    let killCount = 0;
    for (let cycle = 1; cycle <= cycles; cycle += 1) {
      if (!(await rendersInFlight(first))) {
        say(
          `kill cycle ${cycle}: no render in flight within 30 s (crawl finished?); stopping kills`,
        );
        break;
      }
      const killed = await first.killHard(ORPHAN_GRACE_MS);
      killCount += 1;
      orphanCount += killed.orphanCount;
      orphans.push(...killed.orphans);
      await first.launch();
      say(
        `kill -9 ${cycle}/${cycles} mid-lease: ${killed.orphanCount} Chromium process(es) alive ` +
          `after ${ORPHAN_GRACE_MS} ms; restarted`,
      );
    }

    // 2. The scheduler killed with renders in flight; an outage; back on its data.
    await rendersInFlight(first);
    const reportsBefore = first.logLines.length;
    (scheduler as StartedServiceProcess).child.kill('SIGKILL');
    await new Promise((resolve) => scheduler?.child.once('exit', resolve));
    const outageStartedAtMs = Date.now();
    say(`scheduler killed with renders in flight; down for ${outageMs / 1000} s`);
    await sleep(outageMs);
    await startScheduler();
    const outageEndedAtMs = Date.now();
    say(`scheduler back after ${((outageEndedAtMs - outageStartedAtMs) / 1000).toFixed(1)} s`);
    // Reports held through the outage go out now; a lease they belong to had more life left than
    // the outage lasted, so none may come back stale.
    await sleep(Math.min(10_000, leaseTtlSeconds * 1000));
    const staleReports = first.logLines
      .slice(reportsBefore)
      .filter((line) => line.msg === 'lease reported' && line.is_stale_lease === true).length;

    // 3. SIGTERM mid-lease: renders in flight finish and are reported; exit code 0.
    await rendersInFlight(first);
    const stoppingAt = first.logLines.length;
    const sigtermExitCode = await first.stopGracefully();
    const browserLostDuringStop = first.logLines
      .slice(stoppingAt)
      .filter((line) => line.msg === 'browser lost; relaunching').length;
    say(`SIGTERM mid-lease: exit code ${sigtermExitCode}`);
    await first.launch();

    // 4. A second downloader alongside, until every URL is final.
    const second = new DrillDownloader('drill-b', downloaderStart, settings);
    downloaders.push(second);
    await second.launch();
    say('second downloader drill-b crawling alongside; waiting until every URL is final');
    const deadline = Date.now() + Math.max(120_000, seedUrls.length * 2000);
    let lastLine = '';
    for (;;) {
      const summary = await client.getFrontierSummary({ limit: 1 }).catch(() => undefined);
      const counts = new Map(summary?.url_state_list.map((row) => [row.url_state, row.url_count]));
      const finalCount = (counts.get('done') ?? 0) + (counts.get('failed') ?? 0);
      const line = `${finalCount}/${seedUrls.length} final`;
      if (line !== lastLine) {
        say(line);
        lastLine = line;
      }
      if (finalCount >= seedUrls.length || Date.now() > deadline) break;
      await sleep(2000);
    }

    const outcome = await urlOutcomeOf(client, seedUrls);
    const counterInconsistencies = await counterInconsistenciesOf(
      client,
      outcome,
      schedulerRuns.flatMap((run) => run.logLines),
    );
    say('stopping the downloaders gracefully');
    for (const downloader of downloaders) await downloader.stopGracefully();
    const outboxRowsLeft = (
      await Promise.all(downloaders.map((downloader) => outboxRowCountOf(downloader.dataDirectory)))
    ).reduce((total, count) => total + count, 0);
    const figures: DrillFigures = {
      urlTotal: seedUrls.length,
      stateCounts: outcome.stateCounts,
      failedReasonCounts: outcome.failedReasonCounts,
      lostUrls: outcome.lostUrls,
      duplicateFetchCount: duplicateFetchCountOf(demo.accessLog, seedUrls),
      counterInconsistencies,
      outboxRowsLeft,
      killCount,
      orphanCount,
      orphans,
      sweptProfileCount: downloaders.reduce(
        (total, downloader) => total + downloader.sweptProfileCount,
        0,
      ),
      leakedProfiles: leakedProfilesOf(
        downloaders.map((downloader) => downloader.profileRoot),
        temporaryDirectory,
      ),
      outageMs,
      leaseTtlSeconds,
      staleReports,
      sigtermExitCode,
      browserLostDuringStop,
      spacingViolations: spacingViolationsOf(demo.accessLog, demo.hosts, minIntervalMs),
      minIntervalMs,
    };
    const isPassed = printDrillSummary(figures);
    shouldKeep ||= !isPassed;
    return isPassed ? 0 : 1;
  } catch (error) {
    shouldKeep = true;
    throw error;
  } finally {
    await stopAll();
    if (shouldKeep) {
      schedulerRuns.forEach((run, index) =>
        writeServiceLog(run, join(workDirectory, `scheduler-run-${index + 1}.log`)),
      );
      for (const downloader of downloaders)
        downloader.writeLog(join(workDirectory, `${downloader.workerId}.log`));
      say(`work directory kept (service logs, data): ${workDirectory}`);
    } else {
      rmSync(workDirectory, { recursive: true, force: true });
    }
  }
}

runCommandInLoopbackNamespace('drill', __filename, main);
