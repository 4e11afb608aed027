import fs, {
  appendFileSync,
  readdirSync,
  readFileSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { LmdbBackend } from '../lmdb-backend';
import { ENVELOPE_HEADER_BYTES, wrapValue } from '../lmdb-value-envelope';
import { FileWriteJournal, journalDirectoryOf } from './file-write-journal';
import { encodeJournalRecord, type StoredWrite } from './journal-record';
import { AmbiguousJournalError, replayLeftoverJournal } from './journal-replay';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'file-journal-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const row = (key: string, value: string | undefined): StoredWrite => ({
  key: Buffer.from(key),
  stored: value === undefined ? undefined : wrapValue(Buffer.from(value), 0),
});
const recordOf = (...writes: StoredWrite[]) => encodeJournalRecord(writes);
const readBack = () =>
  [...FileWriteJournal.records(directory)].map(({ sequence, writes }) => ({
    sequence,
    writes: writes.map(({ key, stored }) => [
      key.toString(),
      stored?.subarray(ENVELOPE_HEADER_BYTES).toString(),
    ]),
  }));
const segmentFiles = () => readdirSync(directory).filter((name) => name.endsWith('.log'));

/** The form written until the twenty-seventh session: records keyed by 8-byte sequence numbers. */
async function writeLegacyJournal(legacyDirectory: string, records: Buffer[]): Promise<void> {
  const environment = open({ path: legacyDirectory, maxDbs: 1 });
  const database = environment.openDB<Buffer, Buffer>({
    name: 'records',
    keyEncoding: 'binary',
    encoding: 'binary',
  });
  for (const [index, record] of records.entries()) {
    const key = Buffer.alloc(8);
    key.writeBigUInt64BE(BigInt(index + 1));
    await database.put(key, record);
  }
  await environment.close();
}

test('records read back in order, as written, each a whole frame', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping');
  await journal.append(1, recordOf(row('a', 'v1'), row('b', undefined)));
  await journal.append(2, recordOf(row('a', 'v2')));
  await journal.close();
  expect(readBack()).toEqual([
    {
      sequence: 1,
      writes: [
        ['a', 'v1'],
        ['b', undefined],
      ],
    },
    { sequence: 2, writes: [['a', 'v2']] },
  ]);
});

test('the records of one synchronous run count together or not at all', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping');
  await journal.append(1, recordOf(row('a', 'first run')));
  // One frontier batch: several tables, several records, appended in one run.
  const group = [2, 3, 4].map((sequence) => journal.append(sequence, recordOf(row('b', 'batch'))));
  await Promise.all(group);
  await journal.close();
  expect(readBack().map(({ sequence }) => sequence)).toEqual([1, 2, 3, 4]);

  // A kill inside the run's one write() leaves its first records whole and the last cut short:
  // none of them counts.
  const [segment] = segmentFiles().map((name) => join(directory, name));
  truncateSync(segment, readFileSync(segment).length - 1);
  expect(readBack().map(({ sequence }) => sequence)).toEqual([1]);
});

test('a record cut short or damaged ends the journal there: no later record is read', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping');
  await journal.append(1, recordOf(row('a', 'kept')));
  await journal.append(2, recordOf(row('b', 'cut short')));
  await journal.close();
  const [segment] = segmentFiles().map((name) => join(directory, name));
  const wholeLength = readFileSync(segment).length;

  // A kill during the second write() leaves part of it.
  truncateSync(segment, wholeLength - 3);
  expect(readBack().map(({ sequence }) => sequence)).toEqual([1]);

  // A power loss leaves bytes of the first record unwritten: its checksum no longer matches.
  truncateSync(segment, wholeLength);
  const bytes = readFileSync(segment);
  bytes[20] ^= 0xff;
  writeFileSync(segment, bytes);
  expect(readBack()).toEqual([]);
});

test('a checkpoint deletes the segments it covered; the open one is closed to go next time', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping');
  await journal.append(1, recordOf(row('a', 'v1')));
  await journal.append(2, recordOf(row('a', 'v2')));
  expect(segmentFiles()).toHaveLength(1);

  // Records 1–2 are in the store: the segment holding them is closed, not yet deleted...
  await journal.removeThrough(1);
  await journal.append(3, recordOf(row('a', 'v3')));
  expect(segmentFiles()).toHaveLength(2);
  // ...and goes once everything it holds is covered; the newer segment stays.
  await journal.removeThrough(2);
  expect(segmentFiles()).toHaveLength(1);
  expect(readBack().map(({ sequence }) => sequence)).toEqual([3]);
  await journal.removeThrough(3);
  await journal.flushed();
  await journal.close();
  expect(segmentFiles()).toEqual([]);
});

test('full sync: appends resolve after a data sync; flushed and close settle', async () => {
  const journal = FileWriteJournal.open(directory, 'full');
  await Promise.all([1, 2, 3].map((sequence) => journal.append(sequence, recordOf(row('k', 'v')))));
  await journal.flushed();
  await journal.close();
  expect(readBack().map(({ sequence }) => sequence)).toEqual([1, 2, 3]);
});

test('a journal with records left is not written again before a replay empties it', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping');
  await journal.append(1, recordOf(row('a', 'v1')));
  await journal.close();
  expect(() => FileWriteJournal.open(directory, 'overlapping')).toThrow(
    /still holds 1 segment\(s\): it must be replayed into its store/,
  );
  // Something else in the directory is not a segment.
  appendFileSync(join(directory, 'notes.txt'), 'x');
  await FileWriteJournal.removeAll(directory);
  await FileWriteJournal.open(directory, 'overlapping').close();
  expect(readdirSync(directory)).toEqual(['notes.txt']);
});

test('a replay empties the journal newest segment first: a crash halfway leaves only older ones', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping', { segmentBytes: 50 });
  for (let sequence = 1; sequence <= 3; sequence += 1) {
    await journal.append(sequence, recordOf(row(`k${sequence}`, 'a value of some length')));
  }
  await journal.close();
  const removals = jest.spyOn(fs, 'rmSync');
  await FileWriteJournal.removeAll(directory);
  expect(removals.mock.calls.map(([path]) => String(path).slice(-16))).toEqual([
    '000000000003.log',
    '000000000002.log',
    '000000000001.log',
  ]);
  removals.mockRestore();
  expect(segmentFiles()).toEqual([]);
});

test('records span segments in order; a checkpoint deletes the full ones it covered', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping', { segmentBytes: 50 });
  for (let sequence = 1; sequence <= 6; sequence += 1) {
    await journal.append(sequence, recordOf(row(`k${sequence}`, 'a value of some length')));
  }
  // Each record is past 50 bytes with its frame: one segment each.
  expect(segmentFiles()).toHaveLength(6);
  expect(readBack().map(({ sequence }) => sequence)).toEqual([1, 2, 3, 4, 5, 6]);
  await journal.removeThrough(4);
  expect(readBack().map(({ sequence }) => sequence)).toEqual([5, 6]);
  await journal.close();
});

test('a failed write fails its group and every append after it; what came before stays', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping');
  await journal.append(1, recordOf(row('a', 'kept')));
  const writev = jest.spyOn(fs, 'writevSync').mockImplementationOnce(() => {
    throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  });
  const failed = journal.append(2, recordOf(row('b', 'refused')));
  await expect(failed).rejects.toThrow('ENOSPC');
  // The disk has room again: the journal still takes nothing, so no record follows a gap.
  await expect(journal.append(3, recordOf(row('c', 'after')))).rejects.toThrow('ENOSPC');
  writev.mockRestore();
  await journal.close();
  expect(readBack().map(({ sequence }) => sequence)).toEqual([1]);
});

test('close writes what the current run appended', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping');
  const appended = journal.append(1, recordOf(row('a', 'late')));
  await journal.close();
  await appended;
  expect(readBack().map(({ sequence }) => sequence)).toEqual([1]);
  await expect(journal.append(2, recordOf(row('b', 'closed')))).rejects.toThrow(/closed/);
});

test('a journal an earlier version left in LMDB form is replayed, then its files removed', async () => {
  const storeDirectory = directory;
  const legacyDirectory = journalDirectoryOf(storeDirectory);
  await writeLegacyJournal(legacyDirectory, [
    recordOf(row('legacy', 'v1')),
    recordOf(row('legacy', 'v2'), row('other', 'o')),
  ]);

  const store = await LmdbBackend.open(storeDirectory);
  expect((await store.getMany([Buffer.from('legacy'), Buffer.from('other')])).map(String)).toEqual([
    'v2',
    'o',
  ]);
  expect(readdirSync(legacyDirectory).filter((name) => name.endsWith('.mdb'))).toEqual([]);
  expect(await replayLeftoverJournal(storeDirectory, store)).toBe(0);
  await store.close();
});

test('records in both journal forms are refused, not guessed at: the store is left as it was', async () => {
  const legacyDirectory = journalDirectoryOf(directory);
  await writeLegacyJournal(legacyDirectory, [recordOf(row('legacy', 'v1'))]);
  const journal = FileWriteJournal.open(legacyDirectory, 'overlapping');
  await journal.append(1, recordOf(row('segment', 'v1')));
  await journal.close();

  await expect(LmdbBackend.open(directory)).rejects.toThrow(AmbiguousJournalError);
  expect(readdirSync(legacyDirectory).sort()).toEqual(
    expect.arrayContaining(['000000000001.log', 'data.mdb']),
  );
});

test('a legacy journal killed before its table existed replays nothing and is removed', async () => {
  const legacyDirectory = journalDirectoryOf(directory);
  await open({ path: legacyDirectory, maxDbs: 1 }).close();
  const store = await LmdbBackend.open(directory);
  expect(readdirSync(legacyDirectory).filter((name) => name.endsWith('.mdb'))).toEqual([]);
  await store.close();
});
