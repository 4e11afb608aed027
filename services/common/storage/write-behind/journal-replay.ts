import type { LmdbBackend } from '../lmdb-backend';
import { FileWriteJournal, journalDirectoryOf } from './file-write-journal';
import type { StoredWrite } from './journal-record';
import { assertJournalUnowned } from './journal-owner';
import { readLegacyLmdbJournal, removeLegacyLmdbJournal } from './legacy-lmdb-journal';
import { residentKeyPrefixOf } from './resident-rows';
import { replayResidentJournal } from './resident-journal-replay';

/** Writes per replay transaction: bounds one transaction's dirty pages. */
const REPLAY_WRITES_PER_TRANSACTION = 50_000;

/** Both journal forms hold records: which is newer cannot be known (a downgrade after a crash). */
export class AmbiguousJournalError extends Error {
  constructor(readonly journalDirectory: string) {
    super(
      `the write journal ${journalDirectory} holds records in two forms — segment files (*.log) ` +
        'and an LMDB journal (data.mdb) left by an earlier version — so a version that did not ' +
        'read one of them ran on this store after a crash. Which writes are newer cannot be told: ' +
        'keep a copy of the directory, remove the form whose writes are older, and start again',
    );
    this.name = 'AmbiguousJournalError';
  }
}

/**
 * Writes every record of the journal left in `storeDirectory` into the store's rows, oldest first,
 * up to the first sequence number missing (appendedPrefixOf), then empties the journal — only after
 * the rows are synced, so a crash during replay replays again (records are whole row versions:
 * applying one twice, or an older one before a newer one again, ends at the same rows). A journal
 * an earlier version left in LMDB form is replayed the same way. Resolves to the number of records
 * replayed.
 *
 * Unless `isOwnedByCaller` (a writer that claimed the journal first, journal-owner.ts), a journal a
 * running process owns is refused (JournalInUseError): replaying it would race its checkpoints.
 *
 * A journal with resident rows (resident-rows.ts) is not emptied: those rows live only there and
 * in their owner's snapshot. Its other rows are written into the store, and the journal is left for
 * the owner's next open — so a plain opener (a script, a test) reads the store as the owner left
 * it, less the resident rows, which it does not hold; it may not write (LmdbBackend refuses): that
 * replay would put the journal's older row versions back over its writes.
 */
export async function replayLeftoverJournal(
  storeDirectory: string,
  store: LmdbBackend,
  { isOwnedByCaller = false }: { isOwnedByCaller?: boolean } = {},
): Promise<number> {
  const journalDirectory = journalDirectoryOf(storeDirectory);
  if (!isOwnedByCaller) assertJournalUnowned(journalDirectory);
  const residentPrefix = residentKeyPrefixOf(journalDirectory);
  if (residentPrefix !== undefined) {
    return replayKeepingResidentRows(
      journalDirectory,
      store,
      Buffer.from(residentPrefix, 'latin1'),
    );
  }
  const legacy = await readLegacyLmdbJournal(journalDirectory);
  // Read through before writing: the journal holds a checkpoint or two of writes.
  const segments = [...FileWriteJournal.records(journalDirectory)];
  const hasLegacyRecords = legacy !== undefined && legacy.length > 0;
  if (hasLegacyRecords && segments.length > 0) throw new AmbiguousJournalError(journalDirectory);
  const replayed = appendedPrefixOf(hasLegacyRecords ? legacy : segments);
  let pending: StoredWrite[] = [];
  for (const { writes } of replayed) {
    pending.push(...writes);
    if (pending.length >= REPLAY_WRITES_PER_TRANSACTION) {
      await store.applyStoredWrites(pending);
      pending = [];
    }
  }
  if (pending.length > 0) await store.applyStoredWrites(pending);
  if (replayed.length > 0) await store.flushed();
  // Everything goes, the records behind a gap too: they were never acknowledged.
  if (legacy !== undefined) await removeLegacyLmdbJournal(journalDirectory);
  await FileWriteJournal.removeAll(journalDirectory);
  return replayed.length;
}

/**
 * The records up to the first missing sequence number. Records are removed from the oldest on, so
 * a number missing further along is an append that failed: what its process issued after it was
 * never acknowledged, and taking it without the failed one would break issue order
 * (WriteBehindLmdbBackend.keepsIssueOrder).
 */
export function appendedPrefixOf<T extends { sequence: number }>(records: T[]): T[] {
  const gapAt = records.findIndex(
    (record, index) => index > 0 && record.sequence !== records[index - 1].sequence + 1,
  );
  return gapAt === -1 ? records : records.slice(0, gapAt);
}

/** A plain open of a store with resident rows: every other row replayed, the journal kept. */
async function replayKeepingResidentRows(
  journalDirectory: string,
  store: LmdbBackend,
  keyPrefix: Buffer,
): Promise<number> {
  const journal = await replayResidentJournal(journalDirectory, store, {
    keyPrefix,
    prepare: () => undefined,
    apply: () => undefined,
    // The owner's snapshot is not read here: its rows are handed to nobody.
    coveredThrough: () => Number.MAX_SAFE_INTEGER,
  });
  return journal.frames.length;
}
