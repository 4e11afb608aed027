import { cpSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbBackend } from '../lmdb-backend';
import { expiresAtMsOf, payloadOf } from '../lmdb-value-envelope';
import { journalDirectoryOf } from './file-write-journal';
import type { StoredWrite } from './journal-record';
import { ResidentJournalError, ResidentRowReadError, type ResidentRows } from './resident-rows';
import { WriteBehindLmdbBackend, type WriteBehindOptions } from './write-behind-lmdb-backend';

const NO_CHECKPOINT = { rowCountThreshold: 1e9, maxDelayMs: 3_600_000 };
const key = (text: string) => Buffer.from(text);
const value = (text: string) => Buffer.from(text);
const text = (bytes: Buffer | undefined) => bytes?.toString();

/**
 * An owner of the rows under `res:` as the scheduler's resident store is one: its state in memory,
 * a "snapshot" that is a copy of it and the sequence it covers. It refuses deletes and the value
 * `refused`, as the resident url store refuses a document it cannot hold.
 */
class MapResidentRows implements ResidentRows<[string, string]> {
  readonly keyPrefix = key('res:');
  readonly rows: Map<string, string>;
  readonly appliedSequences: number[] = [];
  #coveredThrough: number;

  constructor(snapshot?: { rows: Map<string, string>; coveredThrough: number }) {
    this.rows = new Map(snapshot?.rows);
    this.#coveredThrough = snapshot?.coveredThrough ?? 0;
  }

  prepare({ key: rowKey, stored }: StoredWrite): [string, string] {
    if (stored === undefined) throw new RangeError('resident rows are never deleted');
    if (expiresAtMsOf(stored) !== 0) throw new RangeError('resident rows never expire');
    const payload = payloadOf(stored).toString();
    if (payload === 'refused') throw new RangeError('refused');
    return [rowKey.toString(), payload];
  }

  apply(prepared: ReadonlyArray<[string, string]>, sequence: number): void {
    for (const [rowKey, payload] of prepared) this.rows.set(rowKey, payload);
    this.appliedSequences.push(sequence);
  }

  coveredThrough(): number {
    return this.#coveredThrough;
  }

  /** A snapshot of everything applied so far, which from now on covers it. */
  snapshot(): { rows: Map<string, string>; coveredThrough: number } {
    this.#coveredThrough = this.appliedSequences.at(-1) ?? this.#coveredThrough;
    return { rows: new Map(this.rows), coveredThrough: this.#coveredThrough };
  }
}

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'resident-rows-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function openWith(
  residentRows: MapResidentRows,
  options: WriteBehindOptions = {},
): Promise<WriteBehindLmdbBackend> {
  return WriteBehindLmdbBackend.open(directory, {
    checkpoint: NO_CHECKPOINT,
    ...options,
    residentRows,
  });
}

const segmentNamesIn = (storeDirectory: string) =>
  readdirSync(journalDirectoryOf(storeDirectory)).filter((name) => name.endsWith('.log'));

test('resident rows go to their owner once durable, never to the store, and are not readable there', async () => {
  const owner = new MapResidentRows();
  const backend = await openWith(owner);
  const writing = backend.putMany([
    { key: key('res:a'), value: value('A1') },
    { key: key('plain:b'), value: value('B1') },
  ]);
  // Not before the record is durable: a row the owner holds is one a restart gives back.
  expect(owner.rows.size).toBe(0);
  await writing;
  expect(owner.rows).toEqual(new Map([['res:a', 'A1']]));
  expect(text(await backend.get(key('plain:b')))).toBe('B1');
  await expect(backend.get(key('res:a'))).rejects.toThrow(ResidentRowReadError);
  await expect(backend.scan({ start: key('p'), end: key('s'), limit: 10 })).rejects.toThrow(
    ResidentRowReadError,
  );
  await expect(backend.compareAndSwap(key('res:a'), undefined, value('x'))).rejects.toThrow(
    ResidentRowReadError,
  );
  await expect(backend.deleteRange({ start: key('res:'), end: key('res;') })).rejects.toThrow(
    ResidentRowReadError,
  );
  // A scan that stops short of the prefix, or starts past it, is an ordinary scan.
  const plain = await backend.scan({ start: key('plain:'), end: key('res:'), limit: 10 });
  expect(plain.map((entry) => text(entry.key))).toEqual(['plain:b']);
  await backend.close();
});

test('a resident row its owner refuses refuses its whole batch, and the journal numbers on without a gap', async () => {
  const owner = new MapResidentRows();
  const backend = await openWith(owner);
  await expect(
    backend.putMany([
      { key: key('plain:c'), value: value('C1') },
      { key: key('res:d'), value: value('refused') },
    ]),
  ).rejects.toThrow('refused');
  await expect(backend.deleteMany([key('res:a')])).rejects.toThrow('never deleted');
  expect(await backend.get(key('plain:c'))).toBeUndefined();
  await backend.putMany([{ key: key('res:e'), value: value('E1') }]);
  await backend.close();
  // Had the refused batch taken a sequence number, replay would stop at its gap and lose E1.
  const reopened = new MapResidentRows();
  const backendAgain = await openWith(reopened);
  expect(reopened.rows).toEqual(new Map([['res:e', 'E1']]));
  expect(await backendAgain.get(key('plain:c'))).toBeUndefined();
  await backendAgain.close();
});

test('a restart replays the resident rows after the snapshot to their owner, even after a plain open', async () => {
  const owner = new MapResidentRows();
  const backend = await openWith(owner);
  await backend.putMany([{ key: key('res:a'), value: value('A1') }]);
  await backend.putMany([{ key: key('res:b'), value: value('B1') }]);
  const snapshot = owner.snapshot();
  await backend.putMany([
    { key: key('res:a'), value: value('A2') },
    { key: key('plain:p'), value: value('P1') },
  ]);
  await backend.putMany([{ key: key('res:c'), value: value('C1') }]);
  // The checkpoint writes the plain rows; the journal keeps what the snapshot does not cover.
  await backend.checkpointNow();
  await backend.close();
  expect(segmentNamesIn(directory).length).toBeGreaterThan(0);

  // A plain opener reads the other rows and keeps the journal: the resident rows are only there.
  // It may not write: the owner's next open replays the journal, P1 over anything written here.
  const plainOpener = await LmdbBackend.open(directory);
  expect(text(await plainOpener.get(key('plain:p')))).toBe('P1');
  expect(await plainOpener.get(key('res:a'))).toBeUndefined();
  const everyWrite = [
    () => plainOpener.put({ key: key('plain:p'), value: value('P2') }),
    () => plainOpener.putMany([{ key: key('plain:q'), value: value('Q1') }]),
    () => plainOpener.delete(key('plain:p')),
    () => plainOpener.deleteRange({ start: key('plain:'), end: key('plain;') }),
    () => plainOpener.compareAndSwap(key('plain:p'), value('P1'), value('P2')),
    () => plainOpener.applyStoredWrites([{ key: key('plain:p'), stored: undefined }]),
  ];
  for (const write of everyWrite) await expect(write()).rejects.toThrow(ResidentJournalError);
  expect(await plainOpener.sweepExpired()).toBe(0);
  expect(text(await plainOpener.get(key('plain:p')))).toBe('P1');
  expect(await plainOpener.get(key('plain:q'))).toBeUndefined();
  await plainOpener.close();
  expect(segmentNamesIn(directory).length).toBeGreaterThan(0);

  const reopened = new MapResidentRows(snapshot);
  const backendAgain = await openWith(reopened);
  expect(reopened.appliedSequences).toEqual([3, 4]);
  expect(reopened.rows).toEqual(
    new Map([
      ['res:a', 'A2'],
      ['res:b', 'B1'],
      ['res:c', 'C1'],
    ]),
  );
  expect(text(await backendAgain.get(key('plain:p')))).toBe('P1');
  await backendAgain.putMany([{ key: key('res:d'), value: value('D1') }]);
  expect(reopened.appliedSequences.at(-1)).toBe(5);
  await backendAgain.close();
});

test('the journal forgets a segment only once both the checkpoint and a snapshot cover it', async () => {
  const owner = new MapResidentRows();
  const backend = await openWith(owner);
  for (let index = 1; index <= 5; index += 1) {
    await backend.putMany([
      { key: key(`res:${index}`), value: value(`R${index}`) },
      { key: key(`plain:${index}`), value: value(`P${index}`) },
    ]);
  }
  await backend.checkpointNow();
  // Checkpointed, but no snapshot yet: the resident rows are still only in the journal.
  expect(segmentNamesIn(directory)).toEqual(['000000000001.log']);
  owner.snapshot();
  await backend.putMany([{ key: key('plain:6'), value: value('P6') }]);
  // Covered through 5 only: the segment holding 1–6 is closed, to be deleted later, not now.
  await backend.checkpointNow();
  await backend.putMany([{ key: key('res:7'), value: value('R7') }]);
  expect(segmentNamesIn(directory)).toEqual(['000000000001.log', '000000000007.log']);
  const snapshot = owner.snapshot();
  await backend.putMany([{ key: key('res:8'), value: value('R8') }]);
  await backend.checkpointNow();
  expect(segmentNamesIn(directory)).toEqual(['000000000007.log']);
  await backend.close();

  const reopened = new MapResidentRows(snapshot);
  const backendAgain = await openWith(reopened);
  expect(reopened.appliedSequences).toEqual([8]);
  expect(reopened.rows.get('res:8')).toBe('R8');
  expect(text(await backendAgain.get(key('plain:6')))).toBe('P6');
  await backendAgain.close();
});

test('a journal the snapshot and the checkpoint emptied numbers on past the snapshot', async () => {
  const owner = new MapResidentRows();
  const backend = await openWith(owner);
  for (let index = 1; index <= 5; index += 1) {
    await backend.putMany([{ key: key(`res:${index}`), value: value(`R${index}`) }]);
  }
  const snapshot = owner.snapshot();
  await backend.checkpointNow();
  await backend.close();
  expect(segmentNamesIn(directory)).toEqual([]);

  const reopened = new MapResidentRows(snapshot);
  const backendAgain = await openWith(reopened);
  expect(reopened.appliedSequences).toEqual([]);
  await backendAgain.putMany([{ key: key('res:new'), value: value('N') }]);
  // Numbered after the snapshot's sequence, not from 1: the next replay must not skip it.
  expect(reopened.appliedSequences).toEqual([6]);
  await backendAgain.close();
  const third = new MapResidentRows(snapshot);
  const backendThird = await openWith(third);
  expect(third.rows.get('res:new')).toBe('N');
  await backendThird.close();
});

test('a torn tail is cut before the journal is appended to again, so later records replay', async () => {
  const owner = new MapResidentRows();
  const backend = await openWith(owner);
  await backend.putMany([{ key: key('res:a'), value: value('A1') }]);
  await backend.putMany([{ key: key('res:b'), value: value('B1') }]);
  await backend.close();
  // What a kill -9 inside the second record's write leaves: its segment cut short.
  const journalDirectory = journalDirectoryOf(directory);
  const [segment] = segmentNamesIn(directory);
  const segmentPath = join(journalDirectory, segment);
  truncateSync(segmentPath, statSync(segmentPath).size - 1);

  const reopened = new MapResidentRows();
  const backendAgain = await openWith(reopened);
  expect(reopened.rows).toEqual(new Map([['res:a', 'A1']]));
  await backendAgain.putMany([{ key: key('res:c'), value: value('C1') }]);
  await backendAgain.close();

  const third = new MapResidentRows();
  const backendThird = await openWith(third);
  expect(third.rows).toEqual(
    new Map([
      ['res:a', 'A1'],
      ['res:c', 'C1'],
    ]),
  );
  expect(third.appliedSequences).toEqual([1, 2]);
  await backendThird.close();
});

test('a store first opened with resident rows replays its plain journal into the rows first', async () => {
  const plain = await WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT });
  await plain.put({ key: key('plain:old'), value: value('O') });
  // Killed: the journal is left unreplayed (the owner file names a process that no longer runs).
  const crashed = await mkdtemp(join(tmpdir(), 'resident-rows-crashed-'));
  try {
    cpSync(directory, crashed, { recursive: true });
    rmSync(join(journalDirectoryOf(crashed), 'owner.pid'));
    const owner = new MapResidentRows();
    const backend = await WriteBehindLmdbBackend.open(crashed, {
      checkpoint: NO_CHECKPOINT,
      residentRows: owner,
    });
    expect(text(await backend.get(key('plain:old')))).toBe('O');
    expect(owner.appliedSequences).toEqual([]);
    await backend.close();
  } finally {
    await rm(crashed, { recursive: true, force: true });
  }
  await plain.close();
});

test('a store keeps its resident rows under one prefix for good', async () => {
  const backend = await openWith(new MapResidentRows());
  await backend.close();
  const other = Object.assign(new MapResidentRows(), { keyPrefix: key('other:') });
  await expect(openWith(other)).rejects.toThrow(ResidentJournalError);
  // Nor written behind without them: it would serve as if they never were.
  await expect(
    WriteBehindLmdbBackend.open(directory, { checkpoint: NO_CHECKPOINT }),
  ).rejects.toThrow(ResidentJournalError);
});
