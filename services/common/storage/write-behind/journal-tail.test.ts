import { appendFileSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrapValue } from '../lmdb-value-envelope';
import { FileWriteJournal } from './file-write-journal';
import { encodeJournalRecord } from './journal-record';
import { readJournalCuttingTail } from './journal-tail';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'journal-tail-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const recordOf = (value: string) =>
  encodeJournalRecord([{ key: Buffer.from('k'), stored: wrapValue(Buffer.from(value), 0) }]);
const segmentFiles = () =>
  readdirSync(directory)
    .filter((name) => name.endsWith('.log'))
    .sort();

/** Appends each group in its own run; `segmentBytes: 1` puts every group in a segment of its own. */
async function writeGroups(journal: FileWriteJournal, groups: number[][]): Promise<void> {
  for (const group of groups) {
    await Promise.all(group.map((sequence) => journal.append(sequence, recordOf(`v${sequence}`))));
  }
}

test('the journal is read up to a gap in its numbers, and everything from the gap on is cut', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping', { segmentBytes: 1 });
  // Record 4 never reached the file (its append failed); 5 and 6 came after it in the same run.
  await writeGroups(journal, [[1, 2], [3], [5, 6]]);
  await journal.close();
  expect(segmentFiles()).toHaveLength(3);

  const kept = await readJournalCuttingTail(directory);
  expect(kept.frames.map(({ sequence }) => sequence)).toEqual([1, 2, 3]);
  expect(kept.lastSequence).toBe(3);
  expect(kept.segments.map(({ lastSequence }) => lastSequence)).toEqual([2, 3]);
  expect(segmentFiles()).toEqual(['000000000001.log', '000000000003.log']);
});

test('a torn group is cut from its segment, later segments are deleted, and appending goes on', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping', { segmentBytes: 1 << 20 });
  await writeGroups(journal, [[1], [2, 3]]);
  await journal.close();
  const [segment] = segmentFiles();
  const segmentPath = join(directory, segment);
  const wholeBytes = statSync(segmentPath).size;
  // Half a frame of a third group, as a kill -9 inside its write() leaves.
  appendFileSync(segmentPath, Buffer.alloc(9, 7));

  const kept = await readJournalCuttingTail(directory);
  expect(kept.lastSequence).toBe(3);
  expect(statSync(segmentPath).size).toBe(wholeBytes);

  const continued = FileWriteJournal.continuing(directory, 'overlapping', kept.segments);
  await writeGroups(continued, [[4]]);
  await continued.close();
  const records = [...FileWriteJournal.records(directory)].map(({ sequence }) => sequence);
  expect(records).toEqual([1, 2, 3, 4]);
  // The kept segments are the journal's to delete once covered.
  const reopened = FileWriteJournal.continuing(
    directory,
    'overlapping',
    (await readJournalCuttingTail(directory)).segments,
  );
  await reopened.removeThrough(3);
  expect(segmentFiles()).toEqual(['000000000004.log']);
  await reopened.close();
});

test('a segment holding nothing whole is deleted', async () => {
  const journal = FileWriteJournal.open(directory, 'overlapping', { segmentBytes: 1 });
  await writeGroups(journal, [[1]]);
  await journal.close();
  appendFileSync(join(directory, '000000000002.log'), Buffer.alloc(4, 1));
  const kept = await readJournalCuttingTail(directory);
  expect(kept.lastSequence).toBe(1);
  expect(segmentFiles()).toEqual(['000000000001.log']);
});
