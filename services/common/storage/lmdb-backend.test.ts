import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { LMDB_MAX_ROW_KEY_BYTES, LmdbBackend, type LmdbBackendOptions } from './lmdb-backend';

/* LMDB-specific behaviour the backend-agnostic conformance suite cannot see: sweeping and lifecycle. */

const NO_BACKGROUND_SWEEP: LmdbBackendOptions = { sweepIntervalMs: 3_600_000 };

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'lmdb-backend-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function rows(count: number, ttlSeconds?: number) {
  return Array.from({ length: count }, (_, index) => ({
    key: Buffer.from(`row-${String(index).padStart(3, '0')}`),
    value: Buffer.from(`value-${index}`),
    ttlSeconds,
  }));
}

/** Waits until a TTL of `seconds` written at `writtenAtMs` has passed. */
async function waitForExpiry(writtenAtMs: number, seconds: number): Promise<void> {
  await delay(Math.max(0, writtenAtMs + seconds * 1000 + 50 - Date.now()));
}

test('rows and TTLs survive close and reopen', async () => {
  const first = await LmdbBackend.open(directory, NO_BACKGROUND_SWEEP);
  await first.putMany([
    ...rows(3),
    { key: Buffer.from('short'), value: Buffer.from('x'), ttlSeconds: 1 },
  ]);
  const writtenAtMs = Date.now();
  await first.close();
  await first.close(); // idempotent
  await expect(first.get(Buffer.from('row-000'))).rejects.toThrow(/closed/);

  const second = await LmdbBackend.open(directory, NO_BACKGROUND_SWEEP);
  try {
    expect(await second.get(Buffer.from('row-002'))).toEqual(Buffer.from('value-2'));
    await waitForExpiry(writtenAtMs, 1);
    expect(await second.get(Buffer.from('short'))).toBeUndefined();
  } finally {
    await second.close();
  }
});

test('a sweep deletes at most one batch of expired rows and keeps renewed ones', async () => {
  const backend = await LmdbBackend.open(directory, { ...NO_BACKGROUND_SWEEP, sweepBatchSize: 10 });
  try {
    await backend.putMany(rows(25, 1));
    await backend.putMany([
      { key: Buffer.from('row-000'), value: Buffer.from('renewed forever') },
      { key: Buffer.from('row-001'), value: Buffer.from('renewed for long'), ttlSeconds: 600 },
    ]);
    await backend.delete(Buffer.from('row-002'));
    const writtenAtMs = Date.now();
    expect(await backend.sweepExpired()).toBe(0); // nothing is due yet
    await waitForExpiry(writtenAtMs, 1);

    // 25 due index entries: rows 0–2 are stale (renewed or deleted), so 22 rows are deleted.
    const deletedPerSweep = [
      await backend.sweepExpired(),
      await backend.sweepExpired(),
      await backend.sweepExpired(),
      await backend.sweepExpired(),
    ];
    expect(deletedPerSweep).toEqual([7, 10, 5, 0]);
    expect(await backend.getMany([Buffer.from('row-000'), Buffer.from('row-001')])).toEqual([
      Buffer.from('renewed forever'),
      Buffer.from('renewed for long'),
    ]);
  } finally {
    await backend.close();
  }
});

test('the background sweep removes expired rows without being asked', async () => {
  const backend = await LmdbBackend.open(directory, { sweepIntervalMs: 100 });
  try {
    await backend.putMany(rows(5, 1));
    const writtenAtMs = Date.now();
    await waitForExpiry(writtenAtMs, 1);
    await delay(400); // a few sweep intervals
    // Had the rows still been on disk, this manual sweep would have deleted (and counted) them.
    expect(await backend.sweepExpired()).toBe(0);
  } finally {
    await backend.close();
  }
});

test('rejects keys LMDB cannot store, before writing anything', async () => {
  const backend = await LmdbBackend.open(directory, NO_BACKGROUND_SWEEP);
  try {
    const tooLong = Buffer.alloc(LMDB_MAX_ROW_KEY_BYTES + 1, 0x61);
    await expect(backend.get(Buffer.alloc(0))).rejects.toThrow(RangeError);
    await expect(
      backend.putMany([
        { key: Buffer.from('fine'), value: Buffer.from('x') },
        { key: tooLong, value: Buffer.from('x') },
      ]),
    ).rejects.toThrow(RangeError);
    expect(await backend.get(Buffer.from('fine'))).toBeUndefined();
    await backend.put({
      key: Buffer.alloc(LMDB_MAX_ROW_KEY_BYTES, 0x61),
      value: Buffer.from('x'),
      ttlSeconds: 5,
    });
    expect(await backend.get(Buffer.alloc(LMDB_MAX_ROW_KEY_BYTES, 0x61))).toEqual(Buffer.from('x'));
  } finally {
    await backend.close();
  }
});

test('an open start reaches keys of every first byte, and what a scan returns stays intact', async () => {
  const backend = await LmdbBackend.open(directory, NO_BACKGROUND_SWEEP);
  try {
    // Below and around lmdb-js's own default first key ([5]), and long enough (> 64 bytes) to be
    // read into pooled Buffers rather than V8's on-heap arrays.
    const keys = [[0x00, 0x01], [0x04], [0x05], [0xff]].map((head) =>
      Buffer.concat([Buffer.from(head), Buffer.alloc(80, head[0] + 1)]),
    );
    await backend.putMany(keys.map((key, index) => ({ key, value: Buffer.alloc(90, index) })));
    const everything = { start: Buffer.alloc(0), end: Buffer.alloc(2, 0xff) };
    const scanned = await backend.scan({ ...everything, limit: 10 });
    expect(scanned.map((entry) => entry.key)).toEqual(keys);
    // Later reads reuse lmdb-js's read buffer; the entries read before must not change with it.
    await backend.scan({ ...everything, limit: 10 });
    await backend.getMany(keys);
    expect(scanned.map((entry) => entry.value)).toEqual(
      keys.map((_, index) => Buffer.alloc(90, index)),
    );
    await backend.deleteRange(everything);
    expect(await backend.scan({ ...everything, limit: 10 })).toEqual([]);
  } finally {
    await backend.close();
  }
});

test('write metrics, when tracked, count transactions, pages and time until the sync', async () => {
  const untracked = await LmdbBackend.open(directory, NO_BACKGROUND_SWEEP);
  expect(untracked.writeMetrics()).toBeUndefined();
  await untracked.close();

  const backend = await LmdbBackend.open(directory, { ...NO_BACKGROUND_SWEEP, trackMetrics: true });
  try {
    const before = backend.writeMetrics();
    await backend.putMany(rows(50));
    await backend.putMany(rows(50).map((row) => ({ ...row, value: Buffer.from('changed') })));
    await backend.flushed();
    const after = backend.writeMetrics();
    expect(before).toBeDefined();
    expect(after).toBeDefined();
    if (before === undefined || after === undefined) return;
    expect(after.transactionCount - before.transactionCount).toBeGreaterThanOrEqual(2);
    expect(after.pagesWritten).toBeGreaterThan(before.pagesWritten);
    expect(after.secondsInTransactions).toBeGreaterThan(before.secondsInTransactions);
    // Overlapping sync (the default) makes every committed transaction durable afterwards.
    expect(after.secondsSyncing).toBeGreaterThan(before.secondsSyncing);
  } finally {
    await backend.close();
  }
});
