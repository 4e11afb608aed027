import { cpSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbBackend } from '../lmdb-backend';
import { wrapValue } from '../lmdb-value-envelope';
import { JournalInUseError } from './journal-owner';
import { FileWriteJournal, journalDirectoryOf } from './file-write-journal';
import { encodeJournalRecord } from './journal-record';
import { replayLeftoverJournal } from './journal-replay';
import { WriteBehindLmdbBackend } from './write-behind-lmdb-backend';

const NO_CHECKPOINT = { rowCountThreshold: 1e9, maxDelayMs: 3_600_000 };

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'write-behind-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const key = (text: string) => Buffer.from(text);
const text = (value: Buffer | undefined) => value?.toString();

test('a checkpoint hands LMDB its rows in slices of 5,000, one per event-loop turn', async () => {
  // lmdb-js's writer commits whenever it has caught up with the puts queued, and LMDB charges a
  // small transaction far more per row than a large one (checkpointer.ts). Slices spread thin over
  // the turns made ~1,100 rows a transaction at 1M URLs; slices of 5,000 make 31,000–46,000 there
  // (bench:frontier prints rows per transaction). How many depends on the writer's pace against
  // the main thread's, so this test checks the slices.
  //
  // The event loop's turns, counted by a callback that queues itself for the next one.
  let turn = 0;
  let isCounting = true;
  const countTurn = () => {
    turn += 1;
    if (isCounting) setImmediate(countTurn);
  };
  const turnsOfSlices: number[] = [];
  const applyStoredWrites = LmdbBackend.prototype.applyStoredWrites;
  const handedOver = jest
    .spyOn(LmdbBackend.prototype, 'applyStoredWrites')
    .mockImplementation(function (this: LmdbBackend, writes) {
      turnsOfSlices.push(turn);
      return applyStoredWrites.call(this, writes);
    });
  const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  try {
    const rowCount = 12_345;
    // Scattered over the key space, as url_hash keys are; each value names its key.
    const rowOf = (index: number) => {
      const number = (index * 7_919) % rowCount;
      return { key: key(`row-${number}`), value: Buffer.from(`value-${number}`) };
    };
    for (let start = 0; start < rowCount; start += 1_000) {
      const end = Math.min(rowCount, start + 1_000);
      await backend.putMany(
        Array.from({ length: end - start }, (_, offset) => rowOf(start + offset)),
      );
    }
    setImmediate(countTurn);
    await backend.checkpointNow();
    isCounting = false;
    expect(handedOver.mock.calls.map(([writes]) => writes.length)).toEqual([5_000, 5_000, 2_345]);
    // Each slice in a turn of its own: requests get the turns in between.
    expect(turnsOfSlices[1]).toBeGreaterThan(turnsOfSlices[0]);
    expect(turnsOfSlices[2]).toBeGreaterThan(turnsOfSlices[1]);
    const { rowWriteCount, transactionCount } = backend.statistics();
    expect(rowWriteCount).toBe(rowCount);
    expect(transactionCount).toBeGreaterThanOrEqual(1);
    expect(transactionCount).toBeLessThanOrEqual(rowCount);
    expect(text(await backend.get(key('row-12344')))).toBe('value-12344');
  } finally {
    isCounting = false;
    handedOver.mockRestore();
    await backend.close();
  }
});

test('checkpoint slices must hold at least one row', async () => {
  // Zero or a fraction would never hand a checkpoint over (or hand it over in a loop forever). A
  // refused open leaves nothing open or claimed: the second attempt is refused for its setting
  // too, not for a journal in use.
  for (const rowsPerTurn of [0, 2.5]) {
    await expect(
      WriteBehindLmdbBackend.open(directory, { checkpoint: { rowsPerTurn } }),
    ).rejects.toThrow(`rowsPerTurn must be a positive whole number, got ${rowsPerTurn}`);
  }
});

test('a checkpoint writes each key once, its newest version, and empties overlay and journal', async () => {
  const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  for (let version = 1; version <= 50; version += 1) {
    await backend.put({ key: key('hot'), value: Buffer.from(`v${version}`) });
  }
  await backend.putMany([
    { key: key('lease'), value: Buffer.from('held') },
    { key: key('kept'), value: Buffer.from('yes') },
  ]);
  await backend.delete(key('lease'));
  expect(backend.statistics()).toMatchObject({ overlayRowCount: 3, checkpointCount: 0 });

  await backend.checkpointNow();
  expect(backend.statistics()).toMatchObject({
    overlayRowCount: 0,
    waitingVersionCount: 0,
    versionCount: 53,
    rowWriteCount: 3,
  });
  expect(text(await backend.get(key('hot')))).toBe('v50');
  expect(await backend.get(key('lease'))).toBeUndefined();
  await backend.close();

  // Nothing left to replay: every row is in the store itself.
  const store = await LmdbBackend.open(directory);
  expect(await replayLeftoverJournal(directory, store)).toBe(0);
  expect((await store.getMany([key('hot'), key('lease'), key('kept')])).map(text)).toEqual([
    'v50',
    undefined,
    'yes',
  ]);
  await store.close();
});

test('replay of a journal whose rows a checkpoint already wrote ends at the newest version', async () => {
  // The state a kill leaves between a checkpoint's rows and the removal of its records: the rows
  // hold the newest versions, and the journal still holds older ones before them.
  const store = await LmdbBackend.open(directory);
  await store.applyStoredWrites([{ key: key('row'), stored: wrapValue(Buffer.from('v3'), 0) }]);
  await store.close();
  const journal = FileWriteJournal.open(journalDirectoryOf(directory), 'overlapping');
  const record = (value: string | undefined) =>
    encodeJournalRecord([
      {
        key: key('row'),
        stored: value === undefined ? undefined : wrapValue(Buffer.from(value), 0),
      },
    ]);
  await Promise.all([
    journal.append(1, record('v1')),
    journal.append(2, record(undefined)),
    journal.append(3, record('v3')),
    journal.append(4, encodeJournalRecord([{ key: key('other'), stored: undefined }])),
  ]);
  await journal.close();

  const reopened = await LmdbBackend.open(directory);
  expect(text(await reopened.get(key('row')))).toBe('v3');
  expect(await reopened.get(key('other'))).toBeUndefined();
  // The journal is empty once replayed: a second open replays nothing.
  expect(await replayLeftoverJournal(directory, reopened)).toBe(0);
  await reopened.close();
});

test('writes issued in one run are one group in the journal: a kill inside its write keeps none', async () => {
  const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  await backend.put({ key: key('before'), value: Buffer.from('kept') });
  // One frontier batch: writes to several tables, issued in one run, one record each.
  await Promise.all([
    backend.putMany([{ key: key('a'), value: Buffer.from('1') }]),
    backend.deleteMany([key('before')]),
    backend.putMany([{ key: key('b'), value: Buffer.from('2') }]),
  ]);
  // What a kill -9 during the batch's write leaves: the store as it is, its segment cut short.
  const crashed = await mkdtemp(join(tmpdir(), 'write-behind-crashed-'));
  try {
    cpSync(directory, crashed, { recursive: true });
    const journalDirectory = journalDirectoryOf(crashed);
    rmSync(join(journalDirectory, 'owner.pid'));
    const [segment] = readdirSync(journalDirectory).filter((name) => name.endsWith('.log'));
    const segmentPath = join(journalDirectory, segment);
    truncateSync(segmentPath, statSync(segmentPath).size - 1);
    const store = await LmdbBackend.open(crashed);
    expect((await store.getMany([key('before'), key('a'), key('b')])).map(text)).toEqual([
      'kept',
      undefined,
      undefined,
    ]);
    await store.close();
  } finally {
    await rm(crashed, { recursive: true, force: true });
  }
  await backend.close();
});

test('a full overlay holds back acknowledgements until checkpoints make room', async () => {
  const backend = await WriteBehindLmdbBackend.open(directory, {
    checkpoint: NO_CHECKPOINT,
    maxOverlayRowCount: 100,
  });
  let largestOverlay = 0;
  for (let round = 0; round < 20; round += 1) {
    await backend.putMany(
      Array.from({ length: 30 }, (_, index) => ({
        key: key(`row-${round}-${index}`),
        value: Buffer.from('x'),
      })),
    );
    largestOverlay = Math.max(largestOverlay, backend.statistics().overlayRowCount);
  }
  // Acknowledged writes never leave more than the bound behind (the last batch may straddle it).
  expect(largestOverlay).toBeLessThanOrEqual(100);
  expect(backend.statistics().checkpointCount).toBeGreaterThan(0);
  // The waits are counted (storage_write_behind_back_pressure_*): a store falling behind shows.
  expect(backend.statistics().backPressureWaitCount).toBeGreaterThan(0);
  expect(backend.statistics().backPressureSeconds).toBeGreaterThan(0);
  expect((await backend.scan({ start: key('row-'), end: key('row.'), limit: 1000 })).length).toBe(
    600,
  );
  await backend.close();
});

test('scan merges overlay and store: newer versions replace rows, deletes hide them', async () => {
  const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  await backend.putMany(
    ['a', 'b', 'c', 'd'].map((name) => ({ key: key(name), value: Buffer.from(`old-${name}`) })),
  );
  await backend.checkpointNow();
  await backend.put({ key: key('b'), value: Buffer.from('new-b') });
  await backend.delete(key('c'));
  await backend.put({ key: key('bb'), value: Buffer.from('new-bb') });
  const scanned = await backend.scan({ start: key('a'), end: key('z'), limit: 4 });
  expect(scanned.map((entry) => `${text(entry.key)}=${text(entry.value)}`)).toEqual([
    'a=old-a',
    'b=new-b',
    'bb=new-bb',
    'd=old-d',
  ]);
  await backend.close();
});

test('nobody else opens a store while it is written behind: no replay racing its checkpoints', async () => {
  const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  await backend.put({ key: key('row'), value: Buffer.from('only in the journal') });
  await expect(LmdbBackend.open(directory)).rejects.toThrow(JournalInUseError);
  await expect(WriteBehindLmdbBackend.open(directory)).rejects.toThrow(
    /belongs to running process \d+: stop it before opening its store/,
  );
  // The refused openers changed nothing: the row is still read, and after close anyone opens.
  expect(text(await backend.get(key('row')))).toBe('only in the journal');
  await backend.close();
  const store = await LmdbBackend.open(directory);
  expect(text(await store.get(key('row')))).toBe('only in the journal');
  await store.close();
});

test('a write issued behind a failed append fails too: never read, and never replayed', async () => {
  const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  await backend.put({ key: key('before'), value: Buffer.from('kept') });
  // The journal refuses the next append (disk full, say) only after the one behind it committed.
  const journal = (backend as unknown as { journal: FileWriteJournal }).journal;
  const append = journal.append.bind(journal);
  let refuse!: (error: Error) => void;
  let committedBehind!: Promise<void>;
  journal.append = () => {
    journal.append = (sequence, record) => (committedBehind = append(sequence, record));
    return new Promise<void>((_resolve, reject) => (refuse = reject));
  };
  const failed = backend.put({ key: key('failed'), value: Buffer.from('lost') });
  const behind = backend.put({ key: key('behind'), value: Buffer.from('issued after') });
  await committedBehind;
  refuse(new Error('disk full'));
  await expect(failed).rejects.toThrow('disk full');
  await expect(behind).rejects.toThrow('disk full');
  expect(await backend.get(key('behind'))).toBeUndefined();
  await backend.close();

  // Replay takes the journal up to the failed append's missing record, and empties it.
  const store = await LmdbBackend.open(directory);
  expect((await store.getMany([key('before'), key('failed'), key('behind')])).map(text)).toEqual([
    'kept',
    undefined,
    undefined,
  ]);
  expect(await replayLeftoverJournal(directory, store)).toBe(0);
  await store.close();
});

test('a scan that stops early closes its store cursor: reads keep working across many commits', async () => {
  // A cursor left open pins its read transaction; each later commit then leaves one more reader
  // slot taken, until LMDB refuses every read (MDB_READERS_FULL, 126 slots).
  const backend = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  await backend.putMany(
    ['a', 'b', 'c'].map((name) => ({ key: key(name), value: Buffer.from(name) })),
  );
  await backend.checkpointNow();
  for (let round = 0; round < 200; round += 1) {
    // A newer version in the overlay: the scan merges it with the store's rows, and stops at 1.
    await backend.put({ key: key('b'), value: Buffer.from(`b${round}`) });
    const [first] = await backend.scan({ start: key('a'), end: key('z'), limit: 1 });
    expect(text(first.key)).toBe('a');
    await backend.checkpointNow();
  }
  expect(text(await backend.get(key('b')))).toBe('b199');
  await backend.close();
});
