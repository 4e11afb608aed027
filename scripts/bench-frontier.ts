/**
 * Frontier benchmark: lease + report round trips through HTTP against the scheduler as its own
 * process, at frontiers of 10k, 100k and 1M URLs over 100,000 domains, with 4, 8 and 16 workers;
 * BullMQ on a local Redis doing the equivalent fetch + complete of 50 jobs as the named peer — in
 * one run. Then the same bench on the TiKV backend against its protocol double, and a kill -9 of
 * the scheduler in the middle of a stage.
 *
 *   npm run bench:frontier
 *
 * Per stage: grows the frontier through the scheduler's own frontier module (no scheduler running),
 * starts the scheduler (its start-up timed) and measures W workers each looping GET /v1/lease
 * (task_count 50) → POST /v1/report (every task done, 5 links each); every domain has
 * min_interval_ms 1000 and the in-flight cap is on, and the workers check that no domain was handed
 * out twice within its interval. A stage grows the store of the one before by its seeds, and every
 * page reported adds one URL (a link found), so a stage starts with more URLs than its size — the
 * 1M stage with ~1.44M (the start-up table lists the count; the start-up target is met or missed at
 * that count) — and its frontier grows as a crawl's does through its rows, while BullMQ's queue is
 * topped up to the stage's size. The scheduler's resident memory is read after each stage; at the
 * largest stage one more load (the last worker count, BENCH_FRONTIER_PROFILED_URLS) runs with its
 * CPU profiler on through the inspector — the measured rows run without one. BullMQ: W workers
 * each fetching 50 jobs (getNextJob) and completing them (moveToCompleted) — no per-domain
 * interval, no link admission at all. Each side's clock runs from its workers' first call to their
 * last answer (BullMQ's workers connect before it and close after it: bullmq-peer.ts).
 *
 * Every row is measured in rounds (BENCH_FRONTIER_ROUNDS, 5; three times as many at a stage whose
 * runs are cut short, 10k's), the scheduler's run and BullMQ's at the same worker count one after
 * the other, and each side's row is its run of median throughput (row-rounds.ts); the table lists
 * every run, and the lines under it each round's ratio of the scheduler's run to BullMQ's, which a
 * spell of the machine slowing both leaves alone. The scheduler process stays up, idle, while
 * BullMQ runs, and Redis while the scheduler does.
 *
 * Figures, verdicts and the CPU profile summary are printed and saved to BENCH_FRONTIER_OUTPUT
 * (default .data/bench-frontier/<time>/). Bounded: the run aborts after BENCH_FRONTIER_BUDGET_SECONDS
 * (default 1500). Exit code 1 when a target fails.
 *
 * Knobs: BENCH_FRONTIER_STAGES (10000,100000,1000000), BENCH_FRONTIER_WORKERS (4,8,16),
 * BENCH_FRONTIER_ROUNDS (5; up to 3× at a stage whose runs measure fewer URLs than
 * BENCH_FRONTIER_MEASURED_URLS, as many as make those up: 15 at 10k; the TiKV double's rows once),
 * BENCH_FRONTIER_DOMAINS (100000), BENCH_FRONTIER_MEASURED_URLS (30000 per row, at most half the
 * stage: 600 leases of 50 at the larger stages, so that a p99 is not one slow lease of 200),
 * BENCH_FRONTIER_WARMUP_URLS (60000, unmeasured, before the first row of every scheduler process,
 * and as many jobs of BullMQ's at every stage: the rows measure a process whose hot paths are
 * compiled, as in production, not its first seconds — with 2,000, V8's helper threads still spent
 * ~70 % of their time in TurboFan through the first 40,000 URLs, and with 20,000 the first of a
 * stage's three 4-worker runs, measured right after the warm-up, was its slowest in five of six
 * stages of two full runs; docs/frontier-performance.md),
 * BENCH_FRONTIER_TIKV_WARMUP_URLS (2000 for the TiKV double's stage: its rows are bound by the
 * double, which runs in this process and slows as its history grows — after 20,000 URLs of
 * warm-up its 10k rows measured 0.46–0.65 of those after 2,000, with the HTTP thread on or off),
 * BENCH_FRONTIER_LINKS_PER_PAGE (5), BENCH_FRONTIER_TIKV_STAGES (10000; empty: skip),
 * BENCH_FRONTIER_KILL_CHECK (1; 0: skip), BENCH_FRONTIER_PROFILED_URLS (20000),
 * BENCH_FRONTIER_RUN_FROM (dist: the scheduler built first and started from dist/, as `make run`
 * starts it; source: its TypeScript through tsx, as the tests run it).
 */
import { freeLoopbackPort } from '../services/common/testing/free-loopback-port';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { lmdbAddonKind } from '../services/common/storage/lmdb-addon';
import { benchRunFromOf, benchSourceRoot } from './bench-frontier/bench-build';
import { Budget, elapsedSeconds, log } from './bench-frontier/bench-log';
import { BenchCorpus } from './bench-frontier/bench-corpus';
import { BullmqPeer } from './bench-frontier/bullmq-peer';
import { saveAndPrintBusiestProfile } from './bench-frontier/cpu-profile-summary';
import {
  growFrontier,
  keyspaceGrowthStorage,
  openLmdbGrowthStorage,
  type GrowthStorage,
} from './bench-frontier/frontier-growth';
import { profileWhile } from './bench-frontier/inspector-profile';
import {
  medianRun,
  roundByRoundText,
  roundCountOf,
  roundsAtStage,
  runsText,
} from './bench-frontier/row-rounds';
import { runKillCheck, type KillCheckResult } from './bench-frontier/kill-check';
import {
  cpuCells,
  cpuFiguresText,
  residentMemoryOf,
  TASKS_PER_LEASE,
  WARMUP_URLS,
  type LoadMeasurement,
} from './bench-frontier/scheduler-load';
import {
  loadAgainst,
  type SchedulerLoad,
  logSchedulerErrors,
  startBenchScheduler,
  waitForKnownUrls,
} from './bench-frontier/scheduler-process';

const numbers = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .map(Number);
const STAGES = numbers(process.env.BENCH_FRONTIER_STAGES ?? '10000,100000,1000000');
const WORKER_COUNTS = numbers(process.env.BENCH_FRONTIER_WORKERS ?? '4,8,16');
const TIKV_STAGES = numbers(process.env.BENCH_FRONTIER_TIKV_STAGES ?? '10000');
const MEASURED_URLS = Number(process.env.BENCH_FRONTIER_MEASURED_URLS ?? 30_000);
const WARMUP_URL_COUNT = Number(process.env.BENCH_FRONTIER_WARMUP_URLS ?? WARMUP_URLS);
const TIKV_WARMUP_URLS = Number(process.env.BENCH_FRONTIER_TIKV_WARMUP_URLS ?? 2_000);
const PROFILED_URLS = Number(process.env.BENCH_FRONTIER_PROFILED_URLS ?? 20_000);
const IS_KILL_CHECKED = (process.env.BENCH_FRONTIER_KILL_CHECK ?? '1') !== '0';
const ROUNDS = roundCountOf(process.env);
const RUN_FROM = benchRunFromOf(process.env);
const corpus = new BenchCorpus(
  Number(process.env.BENCH_FRONTIER_DOMAINS ?? 100_000),
  1000,
  Number(process.env.BENCH_FRONTIER_LINKS_PER_PAGE ?? 5),
);
const budget = new Budget(Number(process.env.BENCH_FRONTIER_BUDGET_SECONDS ?? 1500));
const outputDirectory = resolve(
  process.env.BENCH_FRONTIER_OUTPUT ??
    join('.data', 'bench-frontier', new Date().toISOString().replace(/[:.]/g, '-')),
);

/**
 * Writing behind: the row versions journalled and the rows checkpoints wrote, per URL and per
 * LMDB transaction, and the writes whose acknowledgement waited for checkpoints (back-pressure).
 */
function checkpointText({ commits }: LoadMeasurement): string {
  const checkpoint = commits?.checkpoint;
  if (checkpoint === undefined) return '';
  return (
    `; journalled ${checkpoint.versionsPerUrl.toFixed(2)} row versions per URL, ` +
    `checkpoints wrote ${checkpoint.rowWritesPerUrl.toFixed(2)} rows per URL ` +
    `(${checkpoint.rowsPerTransaction.toFixed(0)} per LMDB transaction), ` +
    `${checkpoint.backPressureWaitCount} writes waited for them (${checkpoint.backPressureSeconds.toFixed(1)} s)`
  );
}

/** What held the scheduler's event loop during the row: the figures a lease p99 is read by. */
function pauseText({ pauses }: LoadMeasurement): string {
  if (pauses === undefined) return '';
  return (
    `; event-loop delay p99 ${pauses.loopDelayP99Ms.toFixed(1)} ms, max ${pauses.loopDelayMaxMs.toFixed(1)} ms, ` +
    `GC ${pauses.gcSeconds.toFixed(2)} s (${pauses.gcPausesOver10Ms} pauses ≥ 10 ms, ${pauses.gcPausesOver100Ms} ≥ 100 ms)`
  );
}

/** The same-run targets on the 2-core machine. */
const TARGETS = {
  urlsPerSecond: 5000,
  flatRatio: 0.8,
  leaseP99Ms: 50,
  startupSeconds: 3,
};

interface Row {
  backendLabel: 'lmdb' | 'tikv-double';
  size: number;
  workerCount: number;
  /** The run of median throughput of schedulerRuns (row-rounds.ts). */
  scheduler: LoadMeasurement;
  schedulerRuns: LoadMeasurement[];
  bullmq?: LoadMeasurement;
  bullmqRuns?: LoadMeasurement[];
}

interface StageFacts {
  backendLabel: Row['backendLabel'];
  size: number;
  processStartSeconds: number;
  storageOpenSeconds: number;
  frontierLoadSeconds: number;
  /** URLs the frontier held at its start (BenchScheduler.urlCount). */
  startUrlCount: number;
  /** The background read of url_task into the known-url set, after the process was ready. */
  knownUrlLoadSeconds: number;
  peakRssMib: number;
}

const cleanups: Array<() => Promise<void> | void> = [];

async function main(): Promise<number> {
  log(
    `frontier bench: stages ${STAGES.map((size) => size.toLocaleString('en-US')).join(' / ')} URLs over ` +
      `${corpus.domainCount.toLocaleString('en-US')} domains; ${WORKER_COUNTS.join('/')} workers, ` +
      `${TASKS_PER_LEASE} tasks per lease, ${corpus.linksPerPage} links per page, min_interval_ms ` +
      `${corpus.minIntervalMs}; output ${outputDirectory}`,
  );
  mkdirSync(outputDirectory, { recursive: true });
  const sourceRoot = benchSourceRoot(resolve(__dirname, '..'), RUN_FROM);
  const peer = await BullmqPeer.start();
  cleanups.unshift(() => peer.stop());
  log(`redis-server listening on 127.0.0.1:${peer.port}`);

  const rows: Row[] = [];
  const stages: StageFacts[] = [];
  const lmdbDirectory = mkdtempSync(join(tmpdir(), 'bench-frontier-'));
  cleanups.push(() => rmSync(lmdbDirectory, { recursive: true, force: true }));
  let frontierSize = 0;
  let queueSize = 0;
  let killCheck: KillCheckResult | undefined;
  for (const size of STAGES) {
    const isLargest = size === STAGES[STAGES.length - 1];
    log(
      `stage ${size.toLocaleString('en-US')} (LMDB): growing the frontier from ${frontierSize.toLocaleString('en-US')}`,
    );
    log(`  growing the BullMQ queue to ${size.toLocaleString('en-US')} jobs`);
    await peer.grow(queueSize, size, (index) => corpus.jobOf(index), budget);
    await peer.settled();
    queueSize = size;
    const measureAndTopUp = async (workerCount: number, jobCount: number) => {
      const measurement = await peer.measure(workerCount, TASKS_PER_LEASE, jobCount, budget);
      // The queue gives up what it completed: top it up so every row starts from the stage size.
      await peer.grow(0, measurement.processedCount, (index) => corpus.jobOf(index), budget);
      await peer.settled();
      return measurement;
    };
    const stage = await growAndMeasureStage({
      backendLabel: 'lmdb',
      openStorage: () => openLmdbGrowthStorage(join(lmdbDirectory, 'scheduler')),
      fromSize: frontierSize,
      size,
      dataDirectory: lmdbDirectory,
      sourceRoot,
      isProfiled: isLargest,
      rounds: lmdbRoundsAt(size),
      warmupUrls: WARMUP_URL_COUNT,
      warmPeer: async (workerCount, jobCount) => {
        // In parts of a row's size at most: the queue holds the stage's jobs, topped up after each.
        let warmedCount = 0;
        while (warmedCount < jobCount) {
          const part = Math.min(measuredUrls(size), jobCount - warmedCount);
          const warmup = await measureAndTopUp(workerCount, part);
          if (warmup.processedCount === 0) break;
          warmedCount += warmup.processedCount;
        }
        log(`  BullMQ warm-up (not measured): ${warmedCount} jobs`);
      },
      measurePeer: async (workerCount, roundText) => {
        const bullmq = await measureAndTopUp(workerCount, measuredUrls(size));
        log(
          `  ${roundText}BullMQ, ${workerCount} workers: ${bullmq.urlsPerSecond.toFixed(0)} jobs/s, fetch-50 p50 ` +
            `${bullmq.p50Ms.toFixed(1)} ms, p99 ${bullmq.p99Ms.toFixed(1)} ms, ` +
            `Redis CPU ${cpuFiguresText(bullmq)} µs/job, ` +
            `workers' CPU ${bullmq.clientCpuMicrosecondsPerUrl.toFixed(0)} µs/job`,
        );
        return bullmq;
      },
    });
    frontierSize = size;
    stages.push(stage.facts);
    rows.push(...stage.rows);
    if (isLargest && IS_KILL_CHECKED) {
      log(`  kill -9 check at ${size.toLocaleString('en-US')} URLs`);
      killCheck = await runKillCheck({
        dataDirectory: lmdbDirectory,
        sourceRoot,
        corpus,
        frontierSize: size,
        trafficSeconds: 4,
      });
      log(
        `  kill check: ${killCheck.lostUrlCount} of ${killCheck.checkedUrlCount} acknowledged URLs lost, ` +
          `${killCheck.leasedWhileHeldCount} leased while held, ${killCheck.leasedTwiceCount} leased twice; ` +
          `restart ${killCheck.restartProcessSeconds.toFixed(1)} s (store ${killCheck.restartStorageOpenSeconds.toFixed(2)} s, frontier ${killCheck.restartFrontierLoadSeconds.toFixed(2)} s${restartRecountText(killCheck)} — ${killCheck.restartFrontierLoadParts})`,
      );
    }
  }
  await peer.stop();
  cleanups.shift();

  if (TIKV_STAGES.length > 0) {
    const tikv = await benchTikvDouble(sourceRoot);
    rows.push(...tikv.rows);
    stages.push(...tikv.stages);
  }
  return report(rows, stages, killCheck);
}

function measuredUrls(size: number): number {
  return Math.min(MEASURED_URLS, Math.floor(size / 2));
}

/** Rounds of each LMDB row at a stage (more where its runs are cut short: row-rounds.ts). */
function lmdbRoundsAt(size: number): number {
  return roundsAtStage(ROUNDS, measuredUrls(size), MEASURED_URLS);
}

/** '5' or '5 (15 at 10,000 URLs, whose runs are cut short)', for the header and the verdict. */
function roundsDescription(): string {
  const exceptions = STAGES.filter((size) => lmdbRoundsAt(size) !== ROUNDS).map(
    (size) => `${lmdbRoundsAt(size)} at ${size.toLocaleString('en-US')} URLs`,
  );
  return exceptions.length === 0
    ? String(ROUNDS)
    : `${ROUNDS} (${exceptions.join(', ')}, whose runs are cut short)`;
}

/** 'round 2 of 3, ' in a log line of a row measured in rounds; nothing when it runs once. */
function roundLabel(round: number, rounds: number): string {
  return rounds > 1 ? `round ${round} of ${rounds}, ` : '';
}

/**
 * Grows the frontier to the stage's size (no scheduler running), then one scheduler process on it:
 * its start-up, every worker count, its memory.
 */
async function growAndMeasureStage(options: {
  backendLabel: Row['backendLabel'];
  openStorage: () => Promise<GrowthStorage>;
  fromSize: number;
  size: number;
  dataDirectory: string;
  /** The tree (or its dist/) the scheduler runs from (bench-build.ts). */
  sourceRoot: string;
  environment?: NodeJS.ProcessEnv;
  /** After the measured rows, one more load with the CPU profiler on (inspector-profile.ts). */
  isProfiled?: boolean;
  /** Runs of each row (row-rounds.ts). */
  rounds: number;
  /** URLs leased and reported before the first row, not measured. */
  warmupUrls: number;
  /**
   * The peer's run at a worker count, measured right after the scheduler's of the same round
   * (`roundText`: roundLabel's, for its log line).
   */
  measurePeer?: (workerCount: number, roundText: string) => Promise<LoadMeasurement>;
  /** The peer's warm-up, as long as the scheduler's and right after it (not measured). */
  warmPeer?: (workerCount: number, jobCount: number) => Promise<void>;
}): Promise<{ rows: Row[]; facts: StageFacts }> {
  await growFrontier(options.openStorage, corpus, options.fromSize, options.size, budget);
  const inspectPort = options.isProfiled === true ? await freeLoopbackPort() : undefined;
  const scheduler = await startBenchScheduler({ ...options, inspectPort });
  const stop = async () => {
    logSchedulerErrors(scheduler);
    await scheduler.running.stop(30_000);
  };
  cleanups.unshift(stop);
  log(
    `  scheduler up in ${scheduler.processStartSeconds.toFixed(1)} s with ` +
      `${scheduler.urlCount.toLocaleString('en-US')} URLs (store opened in ` +
      `${scheduler.storageOpenSeconds.toFixed(2)} s` +
      (scheduler.storageOpenParts === '' ? '' : ` — ${scheduler.storageOpenParts}`) +
      `, frontier loaded in ` +
      `${scheduler.frontierLoadSeconds.toFixed(2)} s${scheduler.isRecounted ? ', recounted' : ''}` +
      (scheduler.frontierLoadParts === '' ? '' : ` — ${scheduler.frontierLoadParts}`) +
      ')',
  );
  const rows: Row[] = [];
  let peakRssMib = 0;
  let knownUrlLoadSeconds = Number.NaN;
  try {
    knownUrlLoadSeconds = await waitForKnownUrls(scheduler, 120_000);
    log(
      `  known URLs read in the background in ${knownUrlLoadSeconds.toFixed(2)} s (serving meanwhile)`,
    );
    const load = loadAgainst(scheduler, { corpus, frontierSize: options.size, budget });
    if (options.warmupUrls > 0 && WORKER_COUNTS.length > 0) {
      const warmup = await load(WORKER_COUNTS[0], options.warmupUrls);
      log(
        `  warm-up (not measured): ${warmup.processedCount} URLs at ${warmup.urlsPerSecond.toFixed(0)} URLs/s`,
      );
      await options.warmPeer?.(WORKER_COUNTS[0], options.warmupUrls);
    }
    const schedulerRuns = new Map(WORKER_COUNTS.map((count) => [count, [] as LoadMeasurement[]]));
    const peerRuns = new Map(WORKER_COUNTS.map((count) => [count, [] as LoadMeasurement[]]));
    for (let round = 1; round <= options.rounds; round += 1) {
      const roundText = roundLabel(round, options.rounds);
      for (const workerCount of WORKER_COUNTS) {
        budget.assertLeft();
        const measurement = await load(workerCount, measuredUrls(options.size));
        peakRssMib = residentMemoryOf(scheduler.running.child.pid as number).peakMib;
        logSchedulerRun(options.backendLabel, workerCount, roundText, measurement, peakRssMib);
        schedulerRuns.get(workerCount)?.push(measurement);
        if (options.measurePeer !== undefined) {
          peerRuns.get(workerCount)?.push(await options.measurePeer(workerCount, roundText));
        }
      }
    }
    for (const workerCount of WORKER_COUNTS) {
      const runs = schedulerRuns.get(workerCount) ?? [];
      const peer = peerRuns.get(workerCount) ?? [];
      rows.push({
        backendLabel: options.backendLabel,
        size: options.size,
        workerCount,
        scheduler: medianRun(runs),
        schedulerRuns: runs,
        ...(peer.length === 0 ? {} : { bullmq: medianRun(peer), bullmqRuns: peer }),
      });
    }
    if (inspectPort !== undefined) await profileLoad(inspectPort, load, options.size);
  } finally {
    cleanups.splice(cleanups.indexOf(stop), 1);
    await stop();
  }
  return {
    rows,
    facts: {
      backendLabel: options.backendLabel,
      size: options.size,
      processStartSeconds: scheduler.processStartSeconds,
      startUrlCount: scheduler.urlCount,
      storageOpenSeconds: scheduler.storageOpenSeconds,
      frontierLoadSeconds: scheduler.frontierLoadSeconds,
      knownUrlLoadSeconds,
      peakRssMib,
    },
  };
}

function logSchedulerRun(
  backendLabel: Row['backendLabel'],
  workerCount: number,
  roundText: string,
  measurement: LoadMeasurement,
  peakRssMib: number,
): void {
  log(
    `  ${roundText}scheduler (${backendLabel}), ${workerCount} workers: ${measurement.urlsPerSecond.toFixed(0)} URLs/s, ` +
      `lease p50 ${measurement.p50Ms.toFixed(1)} ms, p99 ${measurement.p99Ms.toFixed(1)} ms, ` +
      `${measurement.tasksPerLease?.toFixed(1) ?? '—'} tasks per lease, ` +
      `${measurement.intervalViolationCount} interval violations, peak RSS ${peakRssMib.toFixed(0)} MiB, ` +
      `CPU ${cpuFiguresText(measurement)} µs/URL, ` +
      `workers' CPU ${workersCpuText(backendLabel, measurement)} µs/URL, ` +
      `commit ${measurement.commits?.meanMs.toFixed(1) ?? '—'} ms for ${measurement.commits?.urlsPerCommit.toFixed(0) ?? '—'} URLs` +
      checkpointText(measurement) +
      pauseText(measurement),
  );
}

/**
 * The profiled load: the last worker count (where the main thread is the bound) for
 * PROFILED_URLS more URLs, profile saved to the output's profile/ directory.
 */
async function profileLoad(inspectPort: number, load: SchedulerLoad, size: number): Promise<void> {
  const workerCount = WORKER_COUNTS[WORKER_COUNTS.length - 1];
  if (workerCount === undefined) return;
  const urlCount = Math.min(PROFILED_URLS, measuredUrls(size));
  // The profiler samples the workers' loop only: around it the load waits for the overlay to
  // drain (up to a checkpoint's 2 s delay), which would read as the main thread idle.
  let profile: unknown;
  const result = await load(workerCount, urlCount, async (work) => {
    ({ profile } = await profileWhile(inspectPort, work));
  });
  const profileDirectory = join(outputDirectory, 'profile');
  mkdirSync(profileDirectory, { recursive: true });
  writeFileSync(join(profileDirectory, `scheduler-${size}.cpuprofile`), JSON.stringify(profile));
  log(
    `  profiled (not measured): ${workerCount} workers, ${result.processedCount} URLs at ` +
      `${result.urlsPerSecond.toFixed(0)} URLs/s with the profiler on`,
  );
}

/**
 * The same stages on the TiKV backend: the scheduler process talks the real gRPC protocol to the
 * in-process double (client overhead included), writes going out phase by phase.
 */
async function benchTikvDouble(sourceRoot: string): Promise<{ rows: Row[]; stages: StageFacts[] }> {
  const { startTikvTestDouble } =
    await import('../services/common/storage/tikv/test-double/tikv-test-double');
  const { TikvBackend } = await import('../services/common/storage/tikv/tikv-backend');
  const double = await startTikvTestDouble();
  cleanups.unshift(() => double.stop());
  const dataDirectory = mkdtempSync(join(tmpdir(), 'bench-frontier-tikv-'));
  cleanups.push(() => rmSync(dataDirectory, { recursive: true, force: true }));
  const environment = {
    STORAGE_BACKEND: 'tikv',
    TIKV_PD_ENDPOINTS: double.pdEndpoints.join(','),
    // url_task is stored on TiKV, whatever the LMDB rows of this run do (README, Storage).
    SCHEDULER_RESIDENT_URL_TASKS: 'off',
  };
  const rows: Row[] = [];
  const stages: StageFacts[] = [];
  let frontierSize = 0;
  try {
    for (const size of TIKV_STAGES) {
      log(`stage ${size.toLocaleString('en-US')} (TiKV double): growing the frontier`);
      const stage = await growAndMeasureStage({
        backendLabel: 'tikv-double',
        openStorage: async () =>
          keyspaceGrowthStorage(await TikvBackend.connect({ pdEndpoints: double.pdEndpoints })),
        fromSize: frontierSize,
        size,
        dataDirectory,
        sourceRoot,
        environment,
        // No peer to alternate with, and its rows move less than the LMDB ones: once.
        rounds: 1,
        warmupUrls: TIKV_WARMUP_URLS,
      });
      frontierSize = size;
      rows.push(...stage.rows);
      stages.push(stage.facts);
    }
  } finally {
    await double.stop();
    cleanups.shift();
  }
  return { rows, stages };
}

/** Interval violations over every run of a row: one run's is not hidden by the median's. */
function violationsOf(row: Row): number {
  return row.schedulerRuns.reduce((sum, run) => sum + run.intervalViolationCount, 0);
}

/**
 * The workers' CPU per URL, as the bench process measured it — not on the TiKV double's rows, where
 * the same process serves the double too.
 */
function workersCpuText(backendLabel: Row['backendLabel'], measurement: LoadMeasurement): string {
  return backendLabel === 'tikv-double' ? '—' : measurement.clientCpuMicrosecondsPerUrl.toFixed(0);
}

/** ', recounted from url_task' when the kill check's restart did not trust the domain rows. */
function restartRecountText(killCheck: KillCheckResult): string {
  return killCheck.isRestartRecounted ? ', recounted from url_task' : '';
}

function report(rows: Row[], stages: StageFacts[], killCheck: KillCheckResult | undefined): number {
  const lines = [
    `frontier benchmark (Node ${process.version}, lmdb-js addon: ${lmdbAddonKind()}, ${TASKS_PER_LEASE} tasks per lease, ${corpus.linksPerPage} links per page, ` +
      `${corpus.domainCount.toLocaleString('en-US')} domains at min_interval_ms ${corpus.minIntervalMs}, in-flight cap 2, ` +
      `the scheduler run from ${RUN_FROM === 'dist' ? 'its build (dist/)' : 'its source (tsx)'}; ` +
      `each LMDB row the run of median throughput of ${roundsDescription()}, the scheduler's and BullMQ's alternating, ` +
      `interval violations counted over every run), ` +
      `${new Date().toISOString()}`,
    '',
    '| backend | frontier URLs | workers | scheduler URLs/s | lease p50 ms | lease p99 ms | tasks per lease | interval violations | scheduler CPU µs/URL | its main thread µs/URL | workers CPU µs/URL | commit mean ms | URLs per commit | rows checkpointed per URL | BullMQ jobs/s | BullMQ fetch-50 p50 ms | p99 ms | Redis CPU µs/job | its main thread µs/job | BullMQ workers CPU µs/job | ratio | runs: scheduler URLs/s | runs: BullMQ jobs/s |',
    '| ------- | ------------- | ------- | ---------------- | ------------ | ------------ | --------------- | ------------------- | -------------------- | ---------------------- | ----------------------- | -------------- | --------------- | ------------------------- | ------------- | ---------------------- | ------ | ---------------- | ---------------------- | ----------------------- | ----- | ---------------------- | ------------------- |',
  ];
  for (const row of rows) {
    const { scheduler, bullmq } = row;
    lines.push(
      `| ${row.backendLabel} | ${row.size.toLocaleString('en-US')} | ${row.workerCount} | ${scheduler.urlsPerSecond.toFixed(0)} | ` +
        `${scheduler.p50Ms.toFixed(1)} | ${scheduler.p99Ms.toFixed(1)} | ` +
        `${scheduler.tasksPerLease?.toFixed(1) ?? '—'} | ${violationsOf(row)} | ` +
        `${cpuCells(scheduler)} | ` +
        `${workersCpuText(row.backendLabel, scheduler)} | ` +
        `${scheduler.commits?.meanMs.toFixed(1) ?? '—'} | ${scheduler.commits?.urlsPerCommit.toFixed(0) ?? '—'} | ` +
        `${scheduler.commits?.checkpoint?.rowWritesPerUrl.toFixed(2) ?? '—'} | ` +
        (bullmq === undefined
          ? '— | — | — | — | — | — | — |'
          : `${bullmq.urlsPerSecond.toFixed(0)} | ${bullmq.p50Ms.toFixed(1)} | ${bullmq.p99Ms.toFixed(1)} | ` +
            `${cpuCells(bullmq)} | ` +
            `${bullmq.clientCpuMicrosecondsPerUrl.toFixed(0)} | ` +
            `${(scheduler.urlsPerSecond / bullmq.urlsPerSecond).toFixed(2)} |`) +
        ` ${runsText(row.schedulerRuns)} | ${row.bullmqRuns === undefined ? '—' : runsText(row.bullmqRuns)} |`,
    );
  }
  // Rows with BullMQ's runs beside the scheduler's, round for round (the TiKV double's have none).
  const pairedRows = rows.flatMap((row) =>
    row.bullmqRuns !== undefined && row.bullmqRuns.length > 1
      ? [{ row, peerRuns: row.bullmqRuns }]
      : [],
  );
  if (pairedRows.length > 0) {
    lines.push(
      '',
      "the scheduler's runs over BullMQ's round by round (a round's two runs are measured one after the other):",
    );
    for (const { row, peerRuns } of pairedRows) {
      lines.push(
        `  ${row.backendLabel}, ${row.size.toLocaleString('en-US')} URLs, ${row.workerCount} workers: ` +
          roundByRoundText(row.schedulerRuns, peerRuns),
      );
    }
  }
  lines.push(
    '',
    '| backend | frontier URLs | URLs held at the start (with links earlier stages found) | start-up: store opened, s | start-up: frontier rebuilt, s | start-up: process ready, s | known URLs read after ready (serving meanwhile), s | scheduler peak RSS MiB |',
    '| ------- | ------------- | -------------------------------------------------------- | ------------------------- | ----------------------------- | -------------------------- | ------------------------------------------------- | ---------------------- |',
  );
  for (const stage of stages) {
    lines.push(
      `| ${stage.backendLabel} | ${stage.size.toLocaleString('en-US')} | ${stage.startUrlCount.toLocaleString('en-US')} | ` +
        `${stage.storageOpenSeconds.toFixed(2)} | ` +
        `${stage.frontierLoadSeconds.toFixed(2)} | ` +
        `${stage.processStartSeconds.toFixed(1)} | ${stage.knownUrlLoadSeconds.toFixed(2)} | ${stage.peakRssMib.toFixed(0)} |`,
    );
  }
  if (killCheck !== undefined) {
    lines.push(
      '',
      `kill -9 mid-stage: ${killCheck.acknowledgedReportCount} acknowledged reports (${killCheck.checkedUrlCount} URLs read back), ` +
        `${killCheck.interruptedLeaseCount} leases cut off; after the restart (${killCheck.restartProcessSeconds.toFixed(1)} s, ` +
        `store ${killCheck.restartStorageOpenSeconds.toFixed(2)} s, frontier ${killCheck.restartFrontierLoadSeconds.toFixed(2)} s${restartRecountText(killCheck)}): ` +
        `${killCheck.lostUrlCount} lost, ` +
        `${killCheck.leasedWhileHeldCount} leased while held, ${killCheck.leasedTwiceCount} leased twice`,
    );
  }

  const lmdbRows = rows.filter((row) => row.backendLabel === 'lmdb');
  const bestRowAt = (size: number): Row | undefined =>
    lmdbRows
      .filter((row) => row.size === size)
      .reduce<Row | undefined>(
        (best, row) =>
          best === undefined || row.scheduler.urlsPerSecond > best.scheduler.urlsPerSecond
            ? row
            : best,
        undefined,
      );
  const bestAt = (size: number) => bestRowAt(size)?.scheduler.urlsPerSecond ?? Number.NaN;
  // A best row with short leases was bound by the domains' intervals (too few due), not by speed.
  const bestText = STAGES.map((size) => {
    const best = bestRowAt(size);
    return best === undefined
      ? `${size.toLocaleString('en-US')}: not measured`
      : `${size.toLocaleString('en-US')}: ${best.scheduler.urlsPerSecond.toFixed(0)} at ${best.workerCount} workers, ` +
          `${best.scheduler.tasksPerLease?.toFixed(1) ?? '—'} tasks per lease`;
  }).join('; ');
  const smallest = STAGES[0];
  const largest = STAGES[STAGES.length - 1];
  const largestStage = stages.find(
    (stage) => stage.backendLabel === 'lmdb' && stage.size === largest,
  );
  // The store's open counts: on a resident store it reads the snapshot the frontier is rebuilt on.
  const largestStartup =
    largestStage === undefined
      ? Number.NaN
      : largestStage.storageOpenSeconds + largestStage.frontierLoadSeconds;
  const p99Row = lmdbRows.find(
    (row) => row.size === largest && row.workerCount === WORKER_COUNTS[0],
  );
  const checks: Array<[string, boolean]> = [
    [
      `>= ${TARGETS.urlsPerSecond.toLocaleString('en-US')} URLs/s leased and reported at every stage (best worker count: ${bestText})`,
      STAGES.every((size) => bestAt(size) >= TARGETS.urlsPerSecond),
    ],
    [
      `flat: ${largest.toLocaleString('en-US')} URLs at >= ${TARGETS.flatRatio}x the throughput at ${smallest.toLocaleString('en-US')} ` +
        `(${(bestAt(largest) / bestAt(smallest)).toFixed(2)}x)`,
      bestAt(largest) >= TARGETS.flatRatio * bestAt(smallest),
    ],
    [
      `lease p99 < ${TARGETS.leaseP99Ms} ms at ${largest.toLocaleString('en-US')} URLs (${WORKER_COUNTS[0]} workers: ${p99Row?.scheduler.p99Ms.toFixed(1)} ms)`,
      p99Row !== undefined && p99Row.scheduler.p99Ms < TARGETS.leaseP99Ms,
    ],
    [
      `start-up at ${largest.toLocaleString('en-US')} URLs < ${TARGETS.startupSeconds} s (store opened ` +
        `${largestStage?.storageOpenSeconds.toFixed(2)} s + frontier rebuilt ${largestStage?.frontierLoadSeconds.toFixed(2)} s = ` +
        `${largestStartup.toFixed(2)} s; process ready incl. loading modules: ${largestStage?.processStartSeconds.toFixed(1)} s; ` +
        `${largestStage?.startUrlCount.toLocaleString('en-US')} URLs held, with the links earlier stages found)`,
      largestStartup < TARGETS.startupSeconds,
    ],
    [
      '0 interval violations (every run of every row)',
      rows.every((row) => violationsOf(row) === 0),
    ],
    [
      `at least BullMQ jobs/s at every stage and worker count (same run; each side's median of ${roundsDescription()} alternating runs)`,
      lmdbRows.every(
        (row) =>
          row.bullmq !== undefined && row.scheduler.urlsPerSecond >= row.bullmq.urlsPerSecond,
      ),
    ],
  ];
  if (killCheck !== undefined) {
    checks.push([
      'kill -9 mid-stage: no acknowledged report lost, no URL leased while held or twice',
      killCheck.lostUrlCount === 0 &&
        killCheck.leasedWhileHeldCount === 0 &&
        killCheck.leasedTwiceCount === 0,
    ]);
  }
  lines.push('');
  for (const [label, isMet] of checks) lines.push(`${isMet ? 'PASS' : 'FAIL'}  ${label}`);
  const figures = `${lines.join('\n')}\n`;
  process.stdout.write(`\n${figures}`);
  writeFileSync(join(outputDirectory, 'figures.md'), figures);
  writeProfileSummary();
  return checks.every(([, isMet]) => isMet) ? 0 : 1;
}

/** The largest stage's scheduler profile, summarised next to the figures. */
function writeProfileSummary(): void {
  saveAndPrintBusiestProfile(
    join(outputDirectory, 'profile'),
    join(outputDirectory, 'cpu-profile-summary.txt'),
    (fileName) =>
      `scheduler CPU profile, stage ${STAGES[STAGES.length - 1].toLocaleString('en-US')} URLs, ` +
      `a ${WORKER_COUNTS[WORKER_COUNTS.length - 1]}-worker load after the measured rows, which ran ` +
      `without a profiler (${fileName})`,
  );
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
    log(`done in ${elapsedSeconds().toFixed(0)} s`);
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    log(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
    await cleanUp();
    process.exit(1);
  });
