/**
 * Frontier benchmark: lease + report round trips through HTTP against the scheduler on LMDB, at a
 * frontier of 10k, 100k and 1M URLs over 100,000 domains, and BullMQ on a local Redis doing the
 * equivalent fetch + complete of 50 jobs, as the named peer — in one run.
 *
 *   npm run bench:frontier
 *
 * What it does, per stage:
 *   1. grows the frontier to the stage's size directly through the scheduler's own frontier module
 *      (the same admission code as POST /v1/seeds, without HTTP) while no scheduler runs;
 *   2. starts the scheduler as its own process on that data and measures W workers, each looping
 *      GET /v1/lease (task_count 50) → POST /v1/report (every task done, a few links each) with
 *      the generated client; every domain has min_interval_ms 1000 and the per-domain in-flight cap
 *      is on, and the workers check that no domain was handed out twice within its interval;
 *   3. grows a BullMQ queue to the same size and measures W workers each fetching 50 jobs
 *      (getNextJob) and completing them (moveToCompleted) — no per-domain interval at all.
 *
 * It installs Debian's redis-server when it is missing (as root), starts it on a loopback port in a
 * temporary directory (AOF on, fsync every second: BullMQ's usual durable setting; LMDB fsyncs every
 * commit), stops everything and deletes its data at the end. Bounded: the whole run aborts after
 * BENCH_FRONTIER_BUDGET_SECONDS (default 600). Exit code 1 when a target fails.
 *
 * Knobs (environment): BENCH_FRONTIER_STAGES (default 10000,100000,1000000),
 * BENCH_FRONTIER_DOMAINS (100000), BENCH_FRONTIER_WORKERS (4), BENCH_FRONTIER_MEASURED_URLS
 * (20000 per stage, at most half the stage), BENCH_FRONTIER_LINKS_PER_PAGE (5).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import pino from 'pino';
import { Registry } from 'prom-client';
import { SchedulerClient } from '../generated/scheduler';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../services/common/testing/service-process';
import { LmdbBackend } from '../services/common/storage/lmdb-backend';
import { openServiceKeyspace } from '../services/common/storage/service-keyspace';
import { Frontier } from '../services/scheduler/frontier/frontier';
import type {
  DomainRule,
  LeaseResponse,
  ReportResult,
} from '../services/scheduler/frontier/wire-types';
import { readSettings } from '../services/common/config/settings';
import { frontierSettingsOf, SCHEDULER_SETTINGS } from '../services/scheduler/scheduler-settings';

const STAGES = (process.env.BENCH_FRONTIER_STAGES ?? '10000,100000,1000000').split(',').map(Number);
const DOMAIN_COUNT = Number(process.env.BENCH_FRONTIER_DOMAINS ?? 100_000);
const WORKER_COUNT = Number(process.env.BENCH_FRONTIER_WORKERS ?? 4);
const MEASURED_URLS = Number(process.env.BENCH_FRONTIER_MEASURED_URLS ?? 20_000);
const LINKS_PER_PAGE = Number(process.env.BENCH_FRONTIER_LINKS_PER_PAGE ?? 5);
const BUDGET_SECONDS = Number(process.env.BENCH_FRONTIER_BUDGET_SECONDS ?? 600);
const TASKS_PER_LEASE = 50;
const MIN_INTERVAL_MS = 1000;
const TOKEN = 'bench-frontier-token-0123456789';
const TARGET_URLS_PER_SECOND = 2000;
const TARGET_LEASE_P99_MS = 50;

const startedAt = performance.now();
const deadline = startedAt + BUDGET_SECONDS * 1000;
const cleanups: Array<() => Promise<void> | void> = [];

function log(message: string): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[${seconds} s] ${message}\n`);
}

function assertWithinBudget(): void {
  if (performance.now() > deadline) throw new Error(`over the ${BUDGET_SECONDS} s budget; aborted`);
}

function domainOf(index: number): string {
  return `d${index % DOMAIN_COUNT}.bench.example`;
}

function urlOf(index: number): string {
  return `https://${domainOf(index)}/page-${Math.floor(index / DOMAIN_COUNT)}`;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted.length === 0
    ? 0
    : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

interface Measurement {
  urlsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  intervalViolationCount: number;
}

// ---------------------------------------------------------------- the scheduler's side

/** Grows the frontier in `dataDirectory` to `targetSize` URLs through the frontier module itself. */
async function growFrontier(
  dataDirectory: string,
  fromSize: number,
  targetSize: number,
): Promise<void> {
  const backend = await LmdbBackend.open(join(dataDirectory, 'scheduler'));
  const frontier = await Frontier.open({
    keyspace: openServiceKeyspace('scheduler', backend),
    clock: { nowMs: () => Date.now() },
    settings: frontierSettingsOf(readSettings(SCHEDULER_SETTINGS, {}, {})),
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    probe: undefined,
    isBatchAtomic: true,
  });
  try {
    if (fromSize === 0) {
      for (let start = 0; start < DOMAIN_COUNT; start += 1000) {
        const rules: DomainRule[] = [];
        for (let index = start; index < Math.min(DOMAIN_COUNT, start + 1000); index += 1) {
          rules.push({
            domain: domainOf(index),
            verdict: 'csr',
            undetermined_reason: null,
            min_interval_ms: MIN_INTERVAL_MS,
            wait_selector: '#content',
            priority_rank: 10,
            robots_txt: 'User-agent: *\nDisallow: /private/\n',
            verified_at: '2026-08-15T06:00:00Z',
            revisit_interval_seconds: null,
          });
        }
        await frontier.submitRules(rules);
      }
      log(`  ${DOMAIN_COUNT.toLocaleString('en-US')} rules stored`);
    }
    const chunk = 10_000;
    for (let start = fromSize; start < targetSize; start += chunk) {
      assertWithinBudget();
      const seeds = [];
      for (let index = start; index < Math.min(targetSize, start + chunk); index += 1)
        seeds.push({ url: urlOf(index) });
      const answer = await frontier.submitSeeds(seeds);
      // A URL may already be in the frontier as a link found in an earlier stage's reports.
      const refused = answer.rejected_list.find((seed) => seed.reject_reason !== 'duplicate_url');
      if (refused !== undefined) throw new Error(`seed refused: ${JSON.stringify(refused)}`);
      if ((start - fromSize) % 100_000 === 0 && start > fromSize) {
        log(`  frontier at ${start.toLocaleString('en-US')} URLs`);
      }
    }
  } finally {
    await frontier.stop();
    await backend.close();
  }
}

/**
 * The report of a whole lease: every task done with a few links — one new URL of the same domain
 * (the frontier grows as a crawl does), the others pages the frontier already holds, on other
 * domains (the de-duplication path).
 */
function reportOf(
  lease: LeaseResponse,
  serial: { next: number },
  frontierSize: number,
): ReportResult[] {
  const seededDomainCount = Math.min(frontierSize, DOMAIN_COUNT);
  return lease.task_list.map((task) => {
    const links = [];
    for (let index = 0; index < LINKS_PER_PAGE; index += 1) {
      serial.next += 1;
      const url =
        index === 0
          ? `https://${task.domain}/found-${serial.next}`
          : urlOf(serial.next % seededDomainCount);
      links.push({
        url,
        rel: '',
        dom_position: index === 0 ? ('main' as const) : ('navigation' as const),
        anchor_text: 'x',
      });
    }
    return {
      url_hash: task.url_hash,
      url: task.url,
      fetch_status: 'done' as const,
      fail_reason: null,
      object_id: task.url_hash,
      statistics: {
        render_duration_ms: 900,
        html_byte_count: 40_000,
        text_character_count: 5000,
        link_count: links.length,
      },
      health_signal: {
        xhr_total_count: 12,
        xhr_error_count: 0,
        xhr_throttled_count: 0,
        xhr_denied_count: 0,
        has_console_error: false,
        redirect_target_hash: task.url_hash,
      },
      link_list: links,
      etag: null,
      last_modified_at: null,
      fetched_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
  });
}

async function measureScheduler(
  url: string,
  urlBudget: number,
  frontierSize: number,
): Promise<Measurement> {
  const client = new SchedulerClient({ baseUrl: url, token: TOKEN, timeoutMs: 30_000 });
  const leaseLatencies: number[] = [];
  const lastLeasedAt = new Map<string, number>();
  let intervalViolationCount = 0;
  let reportedCount = 0;
  const serial = { next: 0 };
  const began = performance.now();
  await Promise.all(
    Array.from({ length: WORKER_COUNT }, async (_, worker) => {
      while (reportedCount < urlBudget && performance.now() < deadline) {
        const sent = performance.now();
        const lease = await client.leaseTasks({
          worker_id: `bench-${worker}`,
          task_count: TASKS_PER_LEASE,
          lease_ttl_seconds: 120,
        });
        const received = performance.now();
        leaseLatencies.push(received - sent);
        for (const task of lease.task_list) {
          // The client sees the answer after the scheduler decided; allow that much slack.
          const previous = lastLeasedAt.get(task.domain);
          if (previous !== undefined && sent - previous < MIN_INTERVAL_MS - (received - sent))
            intervalViolationCount += 1;
          lastLeasedAt.set(task.domain, received);
        }
        if (lease.task_list.length === 0) continue;
        await client.reportLease({
          lease_id: lease.lease_id,
          worker_id: lease.worker_id,
          result_list: reportOf(lease, serial, frontierSize),
        });
        reportedCount += lease.task_list.length;
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  const sorted = leaseLatencies.sort((left, right) => left - right);
  return {
    urlsPerSecond: reportedCount / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    intervalViolationCount,
  };
}

// ---------------------------------------------------------------- BullMQ's side

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

function ensureRedisServer(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], {
    encoding: 'utf8',
  }).stdout.trim();
  if (found !== '') return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'redis-server is missing; install it with `apt-get install -y redis-server` (needs root)',
    );
  }
  log('installing redis-server (apt-get install -y redis-server)');
  spawnSync('apt-get', ['update'], { stdio: 'ignore' });
  const install = spawnSync('apt-get', ['install', '-y', 'redis-server'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (install.status !== 0) throw new Error('apt-get install -y redis-server failed');
  return 'redis-server';
}

async function startRedis(): Promise<{ port: number; child: ChildProcess }> {
  const binary = ensureRedisServer();
  const directory = mkdtempSync(join(tmpdir(), 'bench-redis-'));
  const port = await freePort();
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      directory,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  cleanups.push(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(directory, { recursive: true, force: true });
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('redis-server did not start within 10 s')),
      10_000,
    );
    child.stdout?.on('data', (data: Buffer) => {
      if (data.toString().includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return { port, child };
}

async function growQueue(queue: Queue, fromSize: number, targetSize: number): Promise<void> {
  for (let start = fromSize; start < targetSize; start += 5000) {
    assertWithinBudget();
    const jobs = [];
    for (let index = start; index < Math.min(targetSize, start + 5000); index += 1) {
      jobs.push({ name: 'fetch', data: { url: urlOf(index), domain: domainOf(index) } });
    }
    await queue.addBulk(jobs);
  }
}

async function measureBullmq(
  queueName: string,
  port: number,
  jobBudget: number,
): Promise<Measurement> {
  const workers = Array.from(
    { length: WORKER_COUNT },
    () => new Worker(queueName, null, { connection: { host: '127.0.0.1', port }, autorun: false }),
  );
  const fetchLatencies: number[] = [];
  let completedCount = 0;
  const began = performance.now();
  try {
    await Promise.all(
      workers.map(async (worker, index) => {
        const token = `bench-worker-${index}`;
        while (completedCount < jobBudget && performance.now() < deadline) {
          const sent = performance.now();
          const jobs = (
            await Promise.all(
              Array.from({ length: TASKS_PER_LEASE }, () =>
                worker.getNextJob(token, { block: false }),
              ),
            )
          ).filter((job) => job !== undefined);
          fetchLatencies.push(performance.now() - sent);
          if (jobs.length === 0) break;
          await Promise.all(jobs.map((job) => job.moveToCompleted('done', token, false)));
          completedCount += jobs.length;
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
  }
  const seconds = (performance.now() - began) / 1000;
  const sorted = fetchLatencies.sort((left, right) => left - right);
  return {
    urlsPerSecond: completedCount / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    intervalViolationCount: -1,
  };
}

// ---------------------------------------------------------------- the run

interface StageResult {
  size: number;
  scheduler: Measurement;
  bullmq: Measurement;
  startupSeconds: number;
}

async function main(): Promise<number> {
  log(
    `frontier bench: stages ${STAGES.map((size) => size.toLocaleString('en-US')).join(' / ')} URLs over ` +
      `${DOMAIN_COUNT.toLocaleString('en-US')} domains, ${WORKER_COUNT} workers, ${TASKS_PER_LEASE} tasks per lease, ` +
      `${LINKS_PER_PAGE} links per page, min_interval_ms ${MIN_INTERVAL_MS}`,
  );
  const dataDirectory = mkdtempSync(join(tmpdir(), 'bench-frontier-'));
  cleanups.push(() => rmSync(dataDirectory, { recursive: true, force: true }));
  const redis = await startRedis();
  log(`redis-server listening on 127.0.0.1:${redis.port}`);
  const queueName = 'bench-frontier';
  const queue = new Queue(queueName, { connection: { host: '127.0.0.1', port: redis.port } });
  cleanups.unshift(() => queue.close());

  const results: StageResult[] = [];
  let loadedSize = 0;
  for (const size of STAGES) {
    const measured = Math.min(MEASURED_URLS, Math.floor(size / 2));
    log(
      `stage ${size.toLocaleString('en-US')}: growing the frontier from ${loadedSize.toLocaleString('en-US')}`,
    );
    await growFrontier(dataDirectory, loadedSize, size);
    const bootStarted = performance.now();
    const scheduler: StartedServiceProcess = await startServiceProcess(
      'scheduler',
      ['--data-dir', dataDirectory, '--domain-in-flight-cap', '2'],
      { SCHEDULER_TOKEN: TOKEN, LOG_LEVEL: 'info' },
      120_000,
      process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`] : [],
    );
    const startupSeconds = (performance.now() - bootStarted) / 1000;
    log(
      `  scheduler up in ${startupSeconds.toFixed(1)} s; measuring ${measured.toLocaleString('en-US')} URLs`,
    );
    const stopScheduler = async () => {
      await scheduler.stop(5000);
    };
    cleanups.unshift(stopScheduler);
    let schedulerResult: Measurement;
    try {
      schedulerResult = await measureScheduler(scheduler.url, measured, size);
    } catch (error) {
      log(`scheduler log tail: ${scheduler.logLines.slice(-5).map((line) => JSON.stringify(line)).join('\n')} exit ${scheduler.child.exitCode} ${scheduler.child.signalCode}`);
      throw error;
    } finally {
      cleanups.splice(cleanups.indexOf(stopScheduler), 1);
      await stopScheduler();
    }
    log(
      `  scheduler: ${schedulerResult.urlsPerSecond.toFixed(0)} URLs/s, lease p50 ${schedulerResult.p50Ms.toFixed(1)} ms, p99 ${schedulerResult.p99Ms.toFixed(1)} ms`,
    );

    log(`  growing the BullMQ queue to ${size.toLocaleString('en-US')} jobs`);
    await growQueue(queue, loadedSize, size);
    const bullmqResult = await measureBullmq(queueName, redis.port, measured);
    log(
      `  BullMQ: ${bullmqResult.urlsPerSecond.toFixed(0)} jobs/s, fetch-50 p50 ${bullmqResult.p50Ms.toFixed(1)} ms, p99 ${bullmqResult.p99Ms.toFixed(1)} ms`,
    );
    results.push({ size, scheduler: schedulerResult, bullmq: bullmqResult, startupSeconds });
    loadedSize = size;
  }
  return printReport(results);
}

function printReport(results: StageResult[]): number {
  const lines = [
    '',
    `frontier benchmark (Node ${process.version}, ${WORKER_COUNT} workers, ${TASKS_PER_LEASE} per lease)`,
    '',
    '| frontier URLs | scheduler URLs/s | lease p50 ms | lease p99 ms | interval violations | start-up s | BullMQ jobs/s | BullMQ fetch-50 p50 ms | p99 ms | ratio |',
    '| ------------- | ---------------- | ------------ | ------------ | ------------------- | ---------- | ------------- | ---------------------- | ------ | ----- |',
  ];
  for (const { size, scheduler, bullmq, startupSeconds } of results) {
    lines.push(
      `| ${size.toLocaleString('en-US')} | ${scheduler.urlsPerSecond.toFixed(0)} | ${scheduler.p50Ms.toFixed(1)} | ${scheduler.p99Ms.toFixed(1)} | ` +
        `${scheduler.intervalViolationCount} | ${startupSeconds.toFixed(1)} | ${bullmq.urlsPerSecond.toFixed(0)} | ${bullmq.p50Ms.toFixed(1)} | ` +
        `${bullmq.p99Ms.toFixed(1)} | ${(scheduler.urlsPerSecond / bullmq.urlsPerSecond).toFixed(2)} |`,
    );
  }
  const largest = results[results.length - 1];
  const checks: Array<[string, boolean]> = [
    [
      `>= ${TARGET_URLS_PER_SECOND} URLs/s leased and reported at every stage`,
      results.every((result) => result.scheduler.urlsPerSecond >= TARGET_URLS_PER_SECOND),
    ],
    [
      `lease p99 < ${TARGET_LEASE_P99_MS} ms at ${largest.size.toLocaleString('en-US')} URLs`,
      largest.scheduler.p99Ms < TARGET_LEASE_P99_MS,
    ],
    [
      'at least BullMQ throughput at every stage',
      results.every((result) => result.scheduler.urlsPerSecond >= result.bullmq.urlsPerSecond),
    ],
    [
      'no domain handed out twice within min_interval_ms',
      results.every((result) => result.scheduler.intervalViolationCount === 0),
    ],
  ];
  lines.push('');
  for (const [label, isMet] of checks) lines.push(`${isMet ? 'PASS' : 'FAIL'}  ${label}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return checks.every(([, isMet]) => isMet) ? 0 : 1;
}

async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0)) {
    try {
      await cleanup();
    } catch (error) {
      log(`cleanup failed: ${String(error)}`);
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanUp().then(() => process.exit(130));
  });
}

main()
  .then(async (code) => {
    await cleanUp();
    log(`done in ${((performance.now() - startedAt) / 1000).toFixed(0)} s`);
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    log(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
    await cleanUp();
    process.exit(1);
  });
