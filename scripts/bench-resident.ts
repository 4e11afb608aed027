/**
 * Resident url store benchmark (docs/resident-frontier.md, steps 1–3): the url_task table held in
 * typed arrays outside the JavaScript heap, against the same documents in the scheduler's keyspace
 * on LMDB — the store it would replace — in the same process:
 *
 *   - point reads by url_hash at random, resident vs the keyspace's url_task table;
 *   - for information: loading every document at start-up — the resident snapshot read back with
 *     its indexes rebuilt, and url_task scanned from LMDB and decoded (what a first start without
 *     a snapshot would read); a new document's put, a read and a put back with the indexes kept,
 *     the first three due URLs of a domain, the snapshot's write, bytes per URL.
 *
 *   npm run bench:resident           (BENCH_RESIDENT_URLS=1000000 by default)
 *
 * Targets: the snapshot read back in under 3 s (issue 12's start-up budget at 1M URLs), and the
 * point read faster than the keyspace's. Prints PASS/FAIL per target; exits 1 when one fails.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { LmdbBackend } from '../services/common/storage/lmdb-backend';
import { openServiceKeyspace } from '../services/common/storage/service-keyspace';
import type { UrlTaskDocument } from '../services/scheduler/frontier/frontier-documents';
import { openFrontierTables } from '../services/scheduler/frontier/frontier-tables';
import {
  readResidentSnapshot,
  writeResidentSnapshot,
} from '../services/scheduler/frontier/resident/resident-snapshot-file';
import { ResidentUrlStore } from '../services/scheduler/frontier/resident/resident-url-store';
import { queuedUrlTask } from '../services/scheduler/testing/url-task-fixtures';
import { log } from './bench-frontier/bench-log';

const URL_COUNT = Number(process.env.BENCH_RESIDENT_URLS ?? 1_000_000);
if (!(Number.isInteger(URL_COUNT) && URL_COUNT >= 1000 && URL_COUNT <= 5_000_000)) {
  throw new Error('BENCH_RESIDENT_URLS must be a whole number from 1,000 to 5,000,000');
}
const DOMAIN_COUNT = Math.min(100_000, Math.ceil(URL_COUNT / 10));
const POINT_READ_COUNT = Math.min(URL_COUNT, 200_000);
const WARM_UP_COUNT = 10_000;
const WRITE_BATCH_ROWS = 10_000;
const START_UP_BUDGET_SECONDS = 3;

/** URL `index` of the corpus: bench:frontier's shape, one rank, due now. */
function documentOf(index: number, urlHashes: string): UrlTaskDocument {
  const domain = `d${index % DOMAIN_COUNT}.bench.example`;
  return queuedUrlTask({
    url: `https://${domain}/page-${Math.floor(index / DOMAIN_COUNT)}`,
    url_hash: urlHashes.slice(index * 32, index * 32 + 32),
    domain,
  });
}

/** Microseconds per call of `run` over `count` calls. */
function microsecondsPerCall(count: number, run: (index: number) => void): number {
  const started = performance.now();
  for (let index = 0; index < count; index += 1) run(index);
  return ((performance.now() - started) * 1000) / count;
}

async function microsecondsPerAsyncCall(
  count: number,
  run: (index: number) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index += 1) await run(index);
  return ((performance.now() - started) * 1000) / count;
}

/** The i-th of `count` picks spread over the corpus in a fixed pseudo-random order. */
const spread = (index: number) => (index * 7_919 + 13) % URL_COUNT;

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-resident-'));
  const lines: string[] = [];
  const verdicts: Array<{ isMet: boolean; line: string }> = [];
  try {
    log(
      `resident bench: ${URL_COUNT.toLocaleString('en-US')} url_tasks over ${DOMAIN_COUNT.toLocaleString('en-US')} domains`,
    );
    // Documents are made when used: a million of them held at once would be a heap the collector
    // walks through every measurement.
    const urlHashes = randomBytes(16 * URL_COUNT).toString('hex');
    const urlHashOf = (index: number) => urlHashes.slice(index * 32, index * 32 + 32);

    // The resident store.
    const store = new ResidentUrlStore();
    const putMicroseconds = microsecondsPerCall(URL_COUNT, (index) => {
      store.put(documentOf(index, urlHashes));
    });
    log(`  resident: ${URL_COUNT.toLocaleString('en-US')} documents put`);
    const residentRead = (index: number) => {
      if (store.get(urlHashOf(spread(index))) === undefined) throw new Error('lost');
    };
    microsecondsPerCall(WARM_UP_COUNT, residentRead);
    const residentReadMicroseconds = microsecondsPerCall(POINT_READ_COUNT, residentRead);
    const readPutMicroseconds = microsecondsPerCall(POINT_READ_COUNT, (index) => {
      const task = store.read(store.table.slotOf(urlHashOf(spread(index))));
      store.put({ ...task, url_state: 'done', is_in_due_index: false });
    });
    const dueHeadMicroseconds = microsecondsPerCall(DOMAIN_COUNT, (index) => {
      store.indexes.dueSlots(`d${index}.bench.example`, 3);
    });
    const snapshotPath = join(directory, 'resident.snapshot');
    let started = performance.now();
    const snapshotByteCount = await writeResidentSnapshot(store, snapshotPath);
    const snapshotWriteSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    const { store: loaded } = await readResidentSnapshot(snapshotPath);
    const snapshotReadSeconds = (performance.now() - started) / 1000;
    if (loaded.size !== store.size) throw new Error('the snapshot lost documents');
    log('  resident: snapshot written and read back');

    // The peer: the same documents in the scheduler's keyspace on LMDB.
    const backend = await LmdbBackend.open(join(directory, 'lmdb'));
    let keyspaceReadMicroseconds: number;
    let keyspaceLoadSeconds: number;
    try {
      const { urlTasks } = openFrontierTables(openServiceKeyspace('scheduler', backend));
      for (let first = 0; first < URL_COUNT; first += WRITE_BATCH_ROWS) {
        await urlTasks.putMany(
          Array.from({ length: Math.min(WRITE_BATCH_ROWS, URL_COUNT - first) }, (_, offset) => {
            const task = documentOf(first + offset, urlHashes);
            return { primaryKey: task.url_hash, value: task };
          }),
        );
      }
      log(`  keyspace on LMDB: ${URL_COUNT.toLocaleString('en-US')} documents written`);
      const keyspaceRead = async (index: number) => {
        if ((await urlTasks.get(urlHashOf(spread(index)))) === undefined) throw new Error('lost');
      };
      await microsecondsPerAsyncCall(WARM_UP_COUNT, keyspaceRead);
      keyspaceReadMicroseconds = await microsecondsPerAsyncCall(POINT_READ_COUNT, keyspaceRead);
      started = performance.now();
      let loadedCount = 0;
      let after: Parameters<typeof urlTasks.scan>[0]['after'];
      for (;;) {
        const page = await urlTasks.scan({ after, limit: 1000 });
        loadedCount += page.rows.length;
        if (page.nextAfter === null) break;
        after = page.nextAfter;
      }
      keyspaceLoadSeconds = (performance.now() - started) / 1000;
      if (loadedCount !== URL_COUNT) throw new Error('the keyspace lost documents');
    } finally {
      await backend.close();
    }

    lines.push(
      `resident: a new document put ${putMicroseconds.toFixed(2)} µs, a read and a put back ` +
        `(indexes kept) ${readPutMicroseconds.toFixed(2)} µs, a domain's first three due URLs ` +
        `${dueHeadMicroseconds.toFixed(2)} µs, ${(store.table.byteCount / URL_COUNT).toFixed(0)} ` +
        `bytes per URL; snapshot ${(snapshotByteCount / 2 ** 20).toFixed(0)} MiB written in ` +
        `${snapshotWriteSeconds.toFixed(2)} s`,
      `point read by url_hash: resident ${residentReadMicroseconds.toFixed(2)} µs, keyspace on ` +
        `LMDB ${keyspaceReadMicroseconds.toFixed(2)} µs (${(keyspaceReadMicroseconds / residentReadMicroseconds).toFixed(1)}×)`,
      `every document at start-up: resident snapshot read, url_hash index and queues rebuilt ` +
        `${snapshotReadSeconds.toFixed(2)} s; url_task scanned from LMDB and decoded, nothing ` +
        `built (what a first start without a snapshot reads) ${keyspaceLoadSeconds.toFixed(2)} s`,
    );
    verdicts.push(
      {
        isMet: snapshotReadSeconds < START_UP_BUDGET_SECONDS,
        line: `snapshot read back in < ${START_UP_BUDGET_SECONDS} s at ${URL_COUNT.toLocaleString('en-US')} URLs (${snapshotReadSeconds.toFixed(2)} s)`,
      },
      {
        isMet: residentReadMicroseconds < keyspaceReadMicroseconds,
        line: 'a point read faster than the keyspace on LMDB (same process, same documents)',
      },
    );
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  console.log(`\n${lines.join('\n')}\n`);
  for (const { isMet, line } of verdicts) console.log(`${isMet ? 'PASS' : 'FAIL'}  ${line}`);
  if (verdicts.some(({ isMet }) => !isMet)) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
