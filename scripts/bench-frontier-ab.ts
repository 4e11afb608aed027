/**
 * Frontier A/B: the scheduler of this tree against the scheduler of another commit, in alternating
 * runs on copies of one grown frontier — for telling a change's effect from the machine's spread,
 * which on a shared 2-core machine is wider than most single changes (bench:frontier's own rows
 * move by ±15 % between runs of the same code).
 *
 *   BENCH_AB_BASE=<commit> npm run bench:frontier-ab
 *
 * Grows a frontier once (bench:frontier's corpus: 100,000 domains at min_interval_ms 1000, 5 links
 * per page) as bench:frontier grows its stages — opened as the scheduler opens its store, so both
 * sides run in the mode the scheduler would run in on a store of its own: url_task held in memory
 * by default, in the keyspace with SCHEDULER_RESIDENT_URL_TASKS=off (until the thirty-seventh
 * session the store was grown plainly, and every A/B ran the keyspace mode) — then for every
 * round starts each side's scheduler as its own process on a fresh copy, waits for its known-URL
 * set, warms it up (2,000 URLs) and measures every worker count with bench:frontier's load (lease
 * + report through HTTP). Prints each run, then per side and worker count the median of URLs/s,
 * lease p99, scheduler CPU per URL and GC seconds, head/base ratios, and the throughput of head over
 * base round by round with the rounds head was ahead in. Both sides start with this tree's Node flags; the base runs from a temporary git worktree
 * (this checkout's node_modules linked in), removed at the end. Both run from their builds
 * (dist/, compiled first with this checkout's TypeScript) unless BENCH_FRONTIER_RUN_FROM=source
 * (bench-build.ts).
 *
 * Either side may add Node flags and environment variables of its own (ab-side-settings.ts):
 * BENCH_AB_{HEAD,BASE}_NODE_FLAGS ('--flag --other=1'), BENCH_AB_{HEAD,BASE}_ENV ('NAME=value …').
 * With BENCH_AB_BASE=HEAD and the tree clean, that compares the settings alone.
 *
 * Knobs: BENCH_AB_BASE (required: a commit, branch or tag), BENCH_AB_ROUNDS (3),
 * BENCH_AB_WORKERS (4,16), BENCH_AB_URLS (60000 measured per worker count), BENCH_AB_SIZE
 * (1000000 URLs), BENCH_AB_TASKS_PER_LEASE (50; at 10 a cost paid per request weighs five times
 * what it weighs at 50 — a lease and its report cost the scheduler ~1.3–2.4 ms of CPU besides
 * their tasks in the forty-eighth session — so a change to one shows through the machine's spread),
 * BENCH_AB_BUDGET_SECONDS (2400). Output: printed, and saved to
 * .data/bench-frontier-ab/<time>/figures.md.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  abSideSettingsLines,
  abSideSettingsOf,
  type AbSideSettings,
} from './bench-frontier/ab-side-settings';
import { benchRunFromOf, benchSourceRoot } from './bench-frontier/bench-build';
import { Budget, elapsedSeconds, log } from './bench-frontier/bench-log';
import { median } from './common/statistics';
import { roundByRoundText } from './bench-frontier/row-rounds';
import { BenchCorpus } from './bench-frontier/bench-corpus';
import { growFrontier, openLmdbGrowthStorage } from './bench-frontier/frontier-growth';
import {
  cpuFiguresText,
  TASKS_PER_LEASE,
  WARMUP_URLS,
  type LoadMeasurement,
} from './bench-frontier/scheduler-load';
import {
  loadAgainst,
  logSchedulerErrors,
  startBenchScheduler,
  waitForKnownUrls,
} from './bench-frontier/scheduler-process';

const BASE = process.env.BENCH_AB_BASE ?? '';
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const WORKER_COUNTS = (process.env.BENCH_AB_WORKERS ?? '4,16').split(',').map(Number);
const MEASURED_URLS = Number(process.env.BENCH_AB_URLS ?? 60_000);
const TASKS_PER_LEASE_MEASURED = Number(process.env.BENCH_AB_TASKS_PER_LEASE ?? TASKS_PER_LEASE);
const FRONTIER_SIZE = Number(process.env.BENCH_AB_SIZE ?? 1_000_000);
const RUN_FROM = benchRunFromOf(process.env);
const budget = new Budget(Number(process.env.BENCH_AB_BUDGET_SECONDS ?? 2400));
const corpus = new BenchCorpus(100_000, 1000, 5);
const repositoryRoot = resolve(__dirname, '..');
const outputDirectory = resolve(
  join('.data', 'bench-frontier-ab', new Date().toISOString().replace(/[:.]/g, '-')),
);

interface Side {
  label: 'base' | 'head';
  /** The source tree (or its dist/) the scheduler runs from (bench-build.ts). */
  sourceRoot: string;
  settings: AbSideSettings;
}

interface Run {
  side: Side['label'];
  workerCount: number;
  measurement: LoadMeasurement;
}

const cleanups: Array<() => void> = [];

/** A detached worktree of `commit` sharing this checkout's node_modules. */
function worktreeOf(commit: string): string {
  const directory = mkdtempSync(join(tmpdir(), 'bench-frontier-ab-base-'));
  execFileSync('git', ['worktree', 'add', '--detach', directory, commit], {
    cwd: repositoryRoot,
    stdio: 'ignore',
  });
  cleanups.push(() =>
    execFileSync('git', ['worktree', 'remove', '--force', directory], {
      cwd: repositoryRoot,
      stdio: 'ignore',
    }),
  );
  symlinkSync(join(repositoryRoot, 'node_modules'), join(directory, 'node_modules'));
  return directory;
}

/** One scheduler process of `side` on a fresh copy of the grown frontier: every worker count. */
async function runSide(side: Side, template: string): Promise<Run[]> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'bench-frontier-ab-run-'));
  try {
    cpSync(template, dataDirectory, { recursive: true });
    const scheduler = await startBenchScheduler({
      dataDirectory,
      sourceRoot: side.sourceRoot,
      nodeFlags: side.settings.nodeFlags,
      environment: side.settings.environment,
    });
    try {
      await waitForKnownUrls(scheduler, 120_000);
      const load = loadAgainst(scheduler, {
        corpus,
        frontierSize: FRONTIER_SIZE,
        budget,
        tasksPerLease: TASKS_PER_LEASE_MEASURED,
      });
      await load(WORKER_COUNTS[0], WARMUP_URLS);
      const runs: Run[] = [];
      for (const workerCount of WORKER_COUNTS) {
        budget.assertLeft();
        runs.push({
          side: side.label,
          workerCount,
          measurement: await load(workerCount, MEASURED_URLS),
        });
      }
      return runs;
    } finally {
      logSchedulerErrors(scheduler);
      await scheduler.running.stop(30_000);
    }
  } finally {
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

function runText({ side, workerCount, measurement: m }: Run): string {
  return (
    `${side} ${workerCount} workers: ${m.urlsPerSecond.toFixed(0)} URLs/s, lease p50 ` +
    `${m.p50Ms.toFixed(1)} ms, p99 ${m.p99Ms.toFixed(1)} ms, CPU ${cpuFiguresText(m)} µs/URL, ` +
    `GC ${m.pauses?.gcSeconds.toFixed(2) ?? '—'} s, ${m.intervalViolationCount} interval violations`
  );
}

/**
 * Medians per side and worker count, head/base ratios, and head over base round by round (the
 * ratio of the two runs of each round), as a markdown table.
 */
function summaryOf(runs: Run[]): string {
  // Each figure: how it is read from a run, and the decimals it is printed with.
  const figures: Array<[string, (m: LoadMeasurement) => number, number]> = [
    ['URLs/s', (m) => m.urlsPerSecond, 0],
    ['lease p99 ms', (m) => m.p99Ms, 1],
    ['CPU µs/URL', (m) => m.cpuMicrosecondsPerUrl ?? Number.NaN, 0],
    ['main thread CPU µs/URL', (m) => m.mainThreadCpuMicrosecondsPerUrl ?? Number.NaN, 0],
    ['GC s', (m) => m.pauses?.gcSeconds ?? Number.NaN, 2],
  ];
  const lines = [
    `| workers | figure | base median | head median | head / base |`,
    `| ------- | ------ | ----------- | ----------- | ----------- |`,
  ];
  for (const workerCount of WORKER_COUNTS) {
    // One run of each side per round, in the order measured: a round runs both sides' schedulers one
    // after the other (the first side alternating), so their runs share the machine's spell of it.
    const sideRuns = (side: Side['label']) =>
      runs
        .filter((run) => run.side === side && run.workerCount === workerCount)
        .map((run) => run.measurement);
    const [baseRuns, headRuns] = [sideRuns('base'), sideRuns('head')];
    for (const [name, read, digits] of figures) {
      const [base, head] = [median(baseRuns.map(read)), median(headRuns.map(read))];
      lines.push(
        `| ${workerCount} | ${name} | ${base.toFixed(digits)} | ${head.toFixed(digits)} | ${(head / base).toFixed(2)} |`,
      );
    }
    lines.push(
      `| ${workerCount} | URLs/s round by round | — | — | ${roundByRoundText(headRuns, baseRuns)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  if (BASE === '') {
    log(
      'BENCH_AB_BASE is required: the commit to compare this tree with (e.g. BENCH_AB_BASE=HEAD~1)',
    );
    return 2;
  }
  const settings = {
    base: abSideSettingsOf('base', process.env),
    head: abSideSettingsOf('head', process.env),
  };
  mkdirSync(outputDirectory, { recursive: true });
  log(
    `frontier A/B: this tree against ${BASE}; ${ROUNDS} rounds, ${WORKER_COUNTS.join('/')} workers, ` +
      `${MEASURED_URLS.toLocaleString('en-US')} URLs each, ${TASKS_PER_LEASE_MEASURED} tasks per lease, ` +
      `frontier of ${FRONTIER_SIZE.toLocaleString('en-US')} URLs, ` +
      `both schedulers run from ${RUN_FROM === 'dist' ? 'their builds (dist/)' : 'their source (tsx)'}`,
  );
  const settingsLines = abSideSettingsLines(settings);
  for (const line of settingsLines) log(`  ${line}`);
  const sides: Side[] = [
    {
      label: 'base',
      sourceRoot: benchSourceRoot(worktreeOf(BASE), RUN_FROM),
      settings: settings.base,
    },
    {
      label: 'head',
      sourceRoot: benchSourceRoot(repositoryRoot, RUN_FROM),
      settings: settings.head,
    },
  ];
  const template = mkdtempSync(join(tmpdir(), 'bench-frontier-ab-template-'));
  cleanups.push(() => rmSync(template, { recursive: true, force: true }));
  await growFrontier(
    () => openLmdbGrowthStorage(join(template, 'scheduler')),
    corpus,
    0,
    FRONTIER_SIZE,
    budget,
  );
  const runs: Run[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Alternating which side goes first, so a drift of the machine does not favour one side.
    const order = round % 2 === 1 ? sides : [...sides].reverse();
    for (const side of order) {
      for (const run of await runSide(side, template)) {
        runs.push(run);
        log(`  round ${round}, ${runText(run)}`);
      }
    }
  }
  const summary = summaryOf(runs);
  process.stdout.write(`\n${summary}\n`);
  writeFileSync(
    join(outputDirectory, 'figures.md'),
    `frontier A/B, this tree against ${BASE}, both run from ${RUN_FROM}\n${settingsLines.map((line) => `${line}\n`).join('')}\n` +
      `${runs.map(runText).join('\n')}\n\n${summary}\n`,
  );
  log(`saved to ${outputDirectory}`);
  return 0;
}

function cleanUp(): void {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      cleanup();
    } catch (error) {
      log(`cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    cleanUp();
    process.exit(130);
  });
}

main()
  .then((code) => {
    cleanUp();
    log(`done in ${elapsedSeconds().toFixed(0)} s`);
    process.exit(code);
  })
  .catch((error: unknown) => {
    log(`FAIL: ${error instanceof Error ? error.message : String(error)}`);
    cleanUp();
    process.exit(1);
  });
