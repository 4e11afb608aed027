/**
 * Storage micro-benchmark: ops/s and p50/p99 latency of get, put, successful compare-and-swap and a
 * 100-row scan, on LMDB and on the in-process TiKV test double, measured through the service
 * keyspace (what services use; the table uses a record codec, as the scheduler's hot tables do)
 * and through the raw backend, next to lmdb-js itself (its own MessagePack encoding) as the peer:
 * the keyspace handle's overhead over raw lmdb-js on get, measured alternately, must stay under 15 %.
 *
 * Then, for information, what a commit of 1,000 random puts costs on LMDB in stores of 10k and 1M
 * rows (BENCH_STORAGE_COMMIT_SIZES; empty: skip) — why the frontier slows down as it grows.
 *
 *   npm run bench:storage            (BENCH_STORAGE_SECONDS=1.5 per measurement by default)
 *
 * Prints a table with the targets and a pass/fail per target; exits 1 when a target fails.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { open as openLmdbJs } from 'lmdb';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { lmdbAddonKind } from '../services/common/storage/lmdb-addon';
import { LmdbBackend } from '../services/common/storage/lmdb-backend';
import type { OrderedKeyValueBackend } from '../services/common/storage/ordered-key-value-backend';
import { recordCodec } from '../services/common/storage/record-codec';
import { openServiceKeyspace } from '../services/common/storage/service-keyspace';
import {
  formatRandomWriteCommits,
  measureRandomWriteCommits,
} from './bench-storage/random-write-commits';

const SECONDS_PER_MEASUREMENT = Number(process.env.BENCH_STORAGE_SECONDS ?? '1.5');
if (!(SECONDS_PER_MEASUREMENT > 0 && SECONDS_PER_MEASUREMENT <= 60)) {
  throw new Error(`BENCH_STORAGE_SECONDS must be a number of seconds in (0, 60]`);
}
const WARMUP_MS = 200;
const PRELOADED_ROWS = 10_000;
const SCAN_ROWS = 100;

interface Target {
  describe: string;
  isMet: (result: Measurement) => boolean;
}

interface Measurement {
  operationsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

interface BenchmarkCase {
  backendLabel: string;
  layer: 'keyspace' | 'raw' | 'lmdb-js';
  operation: 'get' | 'put' | 'cas' | 'scan 100';
  concurrency: number;
  target?: Target;
  /** One operation; resolves true when it counts (a CAS that swapped). */
  run: (worker: number, iteration: number) => Promise<boolean>;
}

interface Row {
  benchmarkCase: BenchmarkCase;
  measurement: Measurement;
}

const atLeast = (operationsPerSecond: number): Target => ({
  describe: `>= ${operationsPerSecond.toLocaleString('en-US')}/s`,
  isMet: (result) => result.operationsPerSecond >= operationsPerSecond,
});

function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/**
 * Runs `benchmarkCase` with its concurrency: a warm-up, then a timed window in which every latency is
 * recorded; only successes count as operations. Deadlines are checked in the loops, not by timers,
 * because LMDB reads resolve in microtasks and never let a timer fire.
 */
async function measure(benchmarkCase: BenchmarkCase): Promise<Measurement> {
  const recordFrom = performance.now() + WARMUP_MS;
  const recordUntil = recordFrom + SECONDS_PER_MEASUREMENT * 1000;
  const latencies: number[] = [];
  let successes = 0;
  const worker = async (workerIndex: number) => {
    for (let iteration = 0; ; iteration += 1) {
      const startedAt = performance.now();
      if (startedAt >= recordUntil) {
        return;
      }
      const isCounted = await benchmarkCase.run(workerIndex, iteration);
      if (startedAt >= recordFrom) {
        latencies.push(performance.now() - startedAt);
        successes += isCounted ? 1 : 0;
      }
    }
  };
  await Promise.all(Array.from({ length: benchmarkCase.concurrency }, (_, index) => worker(index)));
  const elapsedSeconds = (performance.now() - recordFrom) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    operationsPerSecond: successes / elapsedSeconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
}

interface UrlTask {
  url: string;
  attempt_count: number;
  is_leased: boolean;
  leased_at: string | null;
  priority_rank: number;
}

function urlTask(index: number, attemptCount = 0): UrlTask {
  return {
    url: `https://example.com/catalogue/page-${index}`,
    attempt_count: attemptCount,
    is_leased: false,
    leased_at: '2026-08-15T07:47:52Z',
    priority_rank: index % 5,
  };
}

/** The table's declared fields, as a hot table of the scheduler declares url_task's. */
const urlTaskCodec = recordCodec<UrlTask>({
  url: 'text',
  attempt_count: 'integer',
  is_leased: 'boolean',
  leased_at: 'time?',
  priority_rank: 'integer',
});

const rowKey = (index: number) => `page-${String(index).padStart(6, '0')}`;
const randomRow = () => Math.floor(Math.random() * PRELOADED_ROWS);

/** The keyspace-level cases, identical for every backend. */
async function keyspaceCases(
  backend: OrderedKeyValueBackend,
  backendLabel: string,
  concurrency: { read: number; write: number },
  targets: Partial<Record<BenchmarkCase['operation'], Target>>,
): Promise<BenchmarkCase[]> {
  const table = openServiceKeyspace('scheduler', backend).table('url_task', urlTaskCodec);
  for (let start = 0; start < PRELOADED_ROWS; start += 500) {
    const indexes = Array.from({ length: 500 }, (_, offset) => start + offset);
    await table.putMany(
      indexes.map((index) => ({ primaryKey: rowKey(index), value: urlTask(index) })),
    );
  }
  const swapCounts = new Map<number, number>();
  let putCounter = PRELOADED_ROWS;
  const common = { backendLabel, layer: 'keyspace' as const };
  return [
    {
      ...common,
      operation: 'get',
      concurrency: concurrency.read,
      target: targets.get,
      run: async () => (await table.get(rowKey(randomRow()))) !== undefined,
    },
    {
      ...common,
      operation: 'put',
      concurrency: concurrency.write,
      target: targets.put,
      run: async () => {
        const index = putCounter++;
        await table.put(`new-${index}`, urlTask(index));
        return true;
      },
    },
    {
      ...common,
      operation: 'cas',
      concurrency: concurrency.write,
      target: targets.cas,
      // Each worker swaps its own row, so every CAS should succeed; only successes are counted.
      run: async (worker) => {
        const attempts = swapCounts.get(worker);
        const expected = attempts === undefined ? undefined : urlTask(worker, attempts);
        const next = (attempts ?? -1) + 1;
        const outcome = await table.compareAndSwap(
          `cas-${worker}`,
          expected,
          urlTask(worker, next),
        );
        if (outcome.isSwapped) {
          swapCounts.set(worker, next);
        }
        return outcome.isSwapped;
      },
    },
    {
      ...common,
      operation: 'scan 100',
      concurrency: concurrency.read,
      target: targets['scan 100'],
      run: async () =>
        (
          await table.scan({
            prefix: 'page-',
            after: rowKey(randomRow() % (PRELOADED_ROWS - SCAN_ROWS)),
            limit: SCAN_ROWS,
          })
        ).rows.length === SCAN_ROWS,
    },
  ];
}

/** Raw-backend cases, to show what the keyspace layer (keys, JSON, checks) costs on top. */
async function rawCases(
  backend: OrderedKeyValueBackend,
  backendLabel: string,
  concurrency: { read: number; write: number },
): Promise<BenchmarkCase[]> {
  const key = (text: string) => Buffer.from(`benchmark/${text}`);
  const value = Buffer.from(JSON.stringify(urlTask(1)));
  for (let start = 0; start < PRELOADED_ROWS; start += 500) {
    await backend.putMany(
      Array.from({ length: 500 }, (_, offset) => ({ key: key(rowKey(start + offset)), value })),
    );
  }
  const swapValues = new Map<number, Buffer>();
  let putCounter = 0;
  const common = { backendLabel, layer: 'raw' as const };
  return [
    {
      ...common,
      operation: 'get',
      concurrency: concurrency.read,
      run: async () => (await backend.get(key(rowKey(randomRow())))) !== undefined,
    },
    {
      ...common,
      operation: 'put',
      concurrency: concurrency.write,
      run: async () => {
        await backend.put({ key: key(`new-${putCounter++}`), value });
        return true;
      },
    },
    {
      ...common,
      operation: 'cas',
      concurrency: concurrency.write,
      run: async (worker, iteration) => {
        const next = Buffer.from(`${worker}:${iteration}`);
        const outcome = await backend.compareAndSwap(
          key(`cas-${worker}`),
          swapValues.get(worker),
          next,
        );
        if (outcome.isSwapped) {
          swapValues.set(worker, next);
        }
        return outcome.isSwapped;
      },
    },
    {
      ...common,
      operation: 'scan 100',
      concurrency: concurrency.read,
      run: async () => {
        const start = key(rowKey(randomRow() % (PRELOADED_ROWS - SCAN_ROWS)));
        const rows = await backend.scan({ start, end: key('page-~'), limit: SCAN_ROWS });
        return rows.length === SCAN_ROWS;
      },
    },
  ];
}

async function runCases(
  cases: BenchmarkCase[],
  rows: Row[],
  total: { done: number; planned: number },
) {
  for (const benchmarkCase of cases) {
    total.done += 1;
    process.stderr.write(
      `[${total.done}/${total.planned}] ${benchmarkCase.backendLabel} ${benchmarkCase.layer} ${benchmarkCase.operation} ` +
        `(concurrency ${benchmarkCase.concurrency}) … `,
    );
    const measurement = await measure(benchmarkCase);
    process.stderr.write(
      `${Math.round(measurement.operationsPerSecond).toLocaleString('en-US')} ops/s\n`,
    );
    rows.push({ benchmarkCase, measurement });
  }
}

/** lmdb-js itself, with its own MessagePack encoding: the peer of the keyspace handle. */
async function lmdbJsCases(
  directory: string,
  concurrency: { read: number; write: number },
): Promise<{ cases: BenchmarkCase[]; close: () => Promise<void> }> {
  const environment = openLmdbJs({ path: directory });
  const database = environment.openDB<UrlTask, string>({ name: 'rows' });
  for (let start = 0; start < PRELOADED_ROWS; start += 500) {
    await database.transaction(() => {
      for (let index = start; index < start + 500; index += 1) {
        void database.put(`scheduler:url_task:${rowKey(index)}`, urlTask(index));
      }
    });
  }
  let putCounter = PRELOADED_ROWS;
  const common = { backendLabel: 'lmdb', layer: 'lmdb-js' as const };
  return {
    cases: [
      {
        ...common,
        operation: 'get',
        concurrency: concurrency.read,
        run: async () =>
          (await database.get(`scheduler:url_task:${rowKey(randomRow())}`)) !== undefined,
      },
      {
        ...common,
        operation: 'put',
        concurrency: concurrency.write,
        run: async () => {
          const index = putCounter++;
          await database.put(`scheduler:url_task:new-${index}`, urlTask(index));
          return true;
        },
      },
    ],
    close: () => environment.close(),
  };
}

/** The keyspace handle's overhead over lmdb-js on get may be at most this (issue 12). */
const MAX_KEYSPACE_GET_OVERHEAD = 0.15;
const OVERHEAD_ROUNDS = 3;

/**
 * keyspace get against lmdb-js get, alternately, OVERHEAD_ROUNDS times each: on a shared machine
 * the load changes from one second to the next, and alternating spreads it over both. The
 * verdict is on the medians.
 */
async function measureGetOverhead(
  keyspaceGet: BenchmarkCase,
  lmdbJsGet: BenchmarkCase,
): Promise<{ keyspaceOpsPerSecond: number; lmdbJsOpsPerSecond: number; overhead: number }> {
  const keyspaceRuns: number[] = [];
  const lmdbJsRuns: number[] = [];
  for (let round = 0; round < OVERHEAD_ROUNDS; round += 1) {
    process.stderr.write(`overhead round ${round + 1}/${OVERHEAD_ROUNDS} … `);
    lmdbJsRuns.push((await measure(lmdbJsGet)).operationsPerSecond);
    keyspaceRuns.push((await measure(keyspaceGet)).operationsPerSecond);
    process.stderr.write(
      `lmdb-js ${Math.round(lmdbJsRuns[round]).toLocaleString('en-US')}/s, keyspace ` +
        `${Math.round(keyspaceRuns[round]).toLocaleString('en-US')}/s\n`,
    );
  }
  const median = (values: number[]) =>
    [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)];
  const keyspaceOpsPerSecond = median(keyspaceRuns);
  const lmdbJsOpsPerSecond = median(lmdbJsRuns);
  return {
    keyspaceOpsPerSecond,
    lmdbJsOpsPerSecond,
    overhead: 1 - keyspaceOpsPerSecond / lmdbJsOpsPerSecond,
  };
}

let getOverhead: Awaited<ReturnType<typeof measureGetOverhead>> | undefined;

/** LMDB in a temp directory: throughput targets on this 2-core machine. */
async function benchmarkLmdb(rows: Row[], total: { done: number; planned: number }): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-storage-'));
  const backend = await LmdbBackend.open(directory);
  const peer = await lmdbJsCases(join(directory, 'lmdb-js'), { read: 1, write: 128 });
  try {
    const concurrency = { read: 1, write: 128 };
    const keyspace = await keyspaceCases(backend, 'lmdb', concurrency, {
      get: atLeast(200_000),
      put: atLeast(30_000),
      cas: atLeast(20_000),
    });
    await runCases(keyspace, rows, total);
    await runCases(await rawCases(backend, 'lmdb', concurrency), rows, total);
    await runCases(peer.cases, rows, total);
    getOverhead = await measureGetOverhead(keyspace[0], peer.cases[0]);
  } finally {
    await peer.close();
    await backend.close();
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * A bare unary gRPC round trip to the double (PD GetMembers, no client logic around it): the
 * transport's own cost on this machine, which every TiKV call pays whatever the client does.
 */
async function bareGrpcRoundTripCase(
  pdEndpoint: string,
): Promise<{ benchmarkCase: BenchmarkCase; close: () => void }> {
  const grpc = await import('@grpc/grpc-js');
  const { loadTikvProtocol } =
    await import('../services/common/storage/tikv/protocol/load-protocol');
  const client = new (loadTikvProtocol().PdClient)(pdEndpoint, grpc.credentials.createInsecure());
  const getMembers = (): Promise<boolean> =>
    new Promise((resolve, reject) =>
      (
        client as unknown as {
          GetMembers: (request: object, callback: (error: Error | null) => void) => void;
        }
      ).GetMembers({}, (error) => (error ? reject(error) : resolve(true))),
    );
  return {
    benchmarkCase: {
      backendLabel: 'grpc-baseline',
      layer: 'raw',
      operation: 'get',
      concurrency: 1,
      run: getMembers,
    },
    close: () => client.close(),
  };
}

/**
 * The TiKV client over the in-process test double, one call at a time. A call's p50 includes the
 * double's work and the loopback gRPC round trip; the target is on the client's own overhead, so
 * each raw row is judged on its p50 minus the bare round trip measured in the same run (shown as
 * its own row). The keyspace rows show what services see on top.
 */
async function benchmarkTikvDouble(
  rows: Row[],
  total: { done: number; planned: number },
): Promise<void> {
  const { startTikvTestDouble } =
    await import('../services/common/storage/tikv/test-double/tikv-test-double');
  const { TikvBackend } = await import('../services/common/storage/tikv/tikv-backend');
  const double = await startTikvTestDouble();
  try {
    const backend = await TikvBackend.connect({ pdEndpoints: double.pdEndpoints });
    const baseline = await bareGrpcRoundTripCase(double.pdEndpoints[0]);
    try {
      const oneAtATime = { read: 1, write: 1 };
      await runCases(await keyspaceCases(backend, 'tikv-double', oneAtATime, {}), rows, total);
      await runCases([baseline.benchmarkCase], rows, total);
      const transportP50Ms = rows[rows.length - 1].measurement.p50Ms;
      const clientOverhead: Target = {
        describe: `p50 − round trip (${transportP50Ms.toFixed(3)}) < 0.2 ms`,
        isMet: (result) => result.p50Ms - transportP50Ms < 0.2,
      };
      const raw = await rawCases(backend, 'tikv-double', oneAtATime);
      await runCases(
        raw.map((benchmarkCase) => ({ ...benchmarkCase, target: clientOverhead })),
        rows,
        total,
      );
    } finally {
      baseline.close();
      await backend.close();
    }
  } finally {
    await double.stop();
  }
}

function formatTable(rows: Row[]): string {
  const header = [
    'backend',
    'layer',
    'operation',
    'concurrency',
    'ops/s',
    'p50 ms',
    'p99 ms',
    'target',
    'result',
  ];
  const lines = rows.map(({ benchmarkCase, measurement }) => [
    benchmarkCase.backendLabel,
    benchmarkCase.layer,
    benchmarkCase.operation,
    String(benchmarkCase.concurrency),
    Math.round(measurement.operationsPerSecond).toLocaleString('en-US'),
    measurement.p50Ms.toFixed(3),
    measurement.p99Ms.toFixed(3),
    benchmarkCase.target?.describe ?? '',
    benchmarkCase.target === undefined
      ? ''
      : benchmarkCase.target.isMet(measurement)
        ? 'PASS'
        : 'FAIL',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column].length)),
  );
  const format = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [
    format(header),
    format(widths.map((width) => '-'.repeat(width))),
    ...lines.map(format),
  ].join('\n');
}

async function main(): Promise<void> {
  const rows: Row[] = [];
  const total = { done: 0, planned: 19 };
  await benchmarkLmdb(rows, total);
  let tikvSkipReason: string | undefined;
  try {
    await benchmarkTikvDouble(rows, total);
  } catch (error) {
    // The TiKV client is developed in parallel; its absence must not hide the LMDB results.
    tikvSkipReason = error instanceof Error ? error.message : String(error);
  }
  console.log(
    `\nstorage benchmark (${SECONDS_PER_MEASUREMENT}s per measurement, Node ${process.version}, lmdb-js addon: ${lmdbAddonKind()})\n`,
  );
  console.log(formatTable(rows));
  if (tikvSkipReason !== undefined) {
    console.log(
      `\ntikv-double: NOT RUN (${tikvSkipReason}); its p50 < 0.2 ms targets are unverified`,
    );
  }
  const failed = rows.filter(
    ({ benchmarkCase, measurement }) =>
      benchmarkCase.target && !benchmarkCase.target.isMet(measurement),
  );
  let isOverheadMet = false;
  if (getOverhead !== undefined) {
    isOverheadMet = getOverhead.overhead < MAX_KEYSPACE_GET_OVERHEAD;
    console.log(
      `\n${isOverheadMet ? 'PASS' : 'FAIL'}  keyspace get overhead over raw lmdb-js < ` +
        `${MAX_KEYSPACE_GET_OVERHEAD * 100} %: ${(getOverhead.overhead * 100).toFixed(1)} % ` +
        `(medians of ${OVERHEAD_ROUNDS} alternating runs: keyspace ` +
        `${Math.round(getOverhead.keyspaceOpsPerSecond).toLocaleString('en-US')}/s, lmdb-js ` +
        `${Math.round(getOverhead.lmdbJsOpsPerSecond).toLocaleString('en-US')}/s)`,
    );
  }
  const commitSizes = (process.env.BENCH_STORAGE_COMMIT_SIZES ?? '10000,1000000')
    .split(',')
    .filter((size) => size.trim() !== '')
    .map(Number);
  if (commitSizes.length > 0) {
    const writesPerCommit = 1000;
    const commits = await measureRandomWriteCommits({
      sizes: commitSizes,
      writesPerCommit,
      onProgress: (message) => console.log(message),
    });
    console.log(
      '\nLMDB random-write commits (information, no target: each random put dirties its own page once the store outgrows a commit)\n',
    );
    console.log(formatRandomWriteCommits(commits, writesPerCommit));
  }
  if (failed.length > 0 || tikvSkipReason !== undefined || !isOverheadMet) {
    process.exitCode = 1;
  }
}

void main();
