import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  LmdbBackend,
  type LmdbSyncMode,
  type LmdbWriteMetrics,
} from '../../services/common/storage/lmdb-backend';

/**
 * What one group commit of the scheduler costs on LMDB as the store grows: commits of
 * `writesPerCommit` puts at random keys (a third new, the rest overwriting — url_task documents are
 * keyed by their hash, so a report's writes land all over the B-tree), into stores of each size.
 * Every random put dirties its own 4 KiB page once the store is much larger than a commit, and the
 * commit writes (and syncs) whole pages: the cost per put grows with the store, which is what
 * bench:frontier's 1M stage runs into. Printed for information (no target): the figure that
 * explains the frontier's flatness, measured where anyone can repeat it — with LMDB's own split of
 * each commit into the work inside the transaction (B-tree, dirty pages written to the file) and
 * the sync that makes it durable, both on lmdb-js's one writer thread.
 */
export interface RandomWriteCommitFigures {
  storedRowCount: number;
  syncMode: LmdbSyncMode;
  commitMedianMs: number;
  microsecondsPerPut: number;
  pagesWrittenPerCommit: number;
  msInTransactionPerCommit: number;
  msSyncingPerCommit: number;
}

const VALUE_BYTES = 200;
const KEY_PREFIX = 'bench:random_write:';
const COMMIT_COUNT = 25;
const FILL_BATCH = 20_000;

export async function measureRandomWriteCommits(options: {
  sizes: readonly number[];
  writesPerCommit: number;
  onProgress: (message: string) => void;
}): Promise<RandomWriteCommitFigures[]> {
  const figures: RandomWriteCommitFigures[] = [];
  for (const size of options.sizes) {
    const directory = await mkdtemp(join(tmpdir(), 'bench-storage-commits-'));
    try {
      const keys = await fill(directory, size, options.onProgress);
      for (const syncMode of ['overlapping', 'full'] as const) {
        const backend = await LmdbBackend.open(directory, { syncMode, trackMetrics: true });
        try {
          const before = writeMetricsOf(backend);
          const durations: number[] = [];
          for (let commit = 0; commit < COMMIT_COUNT; commit += 1) {
            const writes = Array.from({ length: options.writesPerCommit }, (_, index) => ({
              key: index % 3 === 0 ? newKey() : keys[Math.floor(Math.random() * keys.length)],
              value: randomBytes(VALUE_BYTES),
            }));
            const startedAt = performance.now();
            await backend.putMany(writes);
            durations.push(performance.now() - startedAt);
          }
          await backend.flushed();
          const after = writeMetricsOf(backend);
          const commits = after.transactionCount - before.transactionCount;
          durations.sort((left, right) => left - right);
          const commitMedianMs = durations[Math.floor(durations.length / 2)];
          figures.push({
            storedRowCount: size,
            syncMode,
            commitMedianMs,
            microsecondsPerPut: (commitMedianMs * 1000) / options.writesPerCommit,
            pagesWrittenPerCommit: (after.pagesWritten - before.pagesWritten) / commits,
            msInTransactionPerCommit:
              ((after.secondsInTransactions - before.secondsInTransactions) * 1000) / commits,
            msSyncingPerCommit: ((after.secondsSyncing - before.secondsSyncing) * 1000) / commits,
          });
        } finally {
          await backend.close();
        }
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }
  return figures;
}

function writeMetricsOf(backend: LmdbBackend): LmdbWriteMetrics {
  const metrics = backend.writeMetrics();
  if (metrics === undefined) throw new Error('LMDB write metrics are off');
  return metrics;
}

function newKey(): Buffer {
  return Buffer.from(KEY_PREFIX + randomBytes(16).toString('hex'), 'utf8');
}

/** Fills a store with `size` rows at random keys, in large commits; resolves to their keys. */
async function fill(
  directory: string,
  size: number,
  onProgress: (message: string) => void,
): Promise<Buffer[]> {
  const backend = await LmdbBackend.open(directory);
  const keys: Buffer[] = [];
  try {
    while (keys.length < size) {
      const batch = Array.from({ length: Math.min(FILL_BATCH, size - keys.length) }, () => ({
        key: newKey(),
        value: randomBytes(VALUE_BYTES),
      }));
      await backend.putMany(batch);
      keys.push(...batch.map((write) => write.key));
    }
    onProgress(`random-write commits: ${size.toLocaleString('en-US')} rows stored`);
  } finally {
    await backend.close();
  }
  return keys;
}

export function formatRandomWriteCommits(
  figures: readonly RandomWriteCommitFigures[],
  writesPerCommit: number,
): string {
  return [
    `| rows stored | sync mode | commit of ${writesPerCommit} random puts, median ms | µs per put | pages written per commit | ms in the transaction | ms syncing |`,
    '| ----------- | --------- | ----------------------------------- | ---------- | ------------------------ | --------------------- | ---------- |',
    ...figures.map(
      (figure) =>
        `| ${figure.storedRowCount.toLocaleString('en-US')} | ${figure.syncMode} | ` +
        `${figure.commitMedianMs.toFixed(1)} | ${figure.microsecondsPerPut.toFixed(1)} | ` +
        `${Math.round(figure.pagesWrittenPerCommit)} | ${figure.msInTransactionPerCommit.toFixed(1)} | ` +
        `${figure.msSyncingPerCommit.toFixed(1)} |`,
    ),
    '',
    'overlapping: the write resolves before the sync, but the sync runs on the same writer thread ' +
      'before the next transaction; full: the sync is inside the transaction.',
  ].join('\n');
}
