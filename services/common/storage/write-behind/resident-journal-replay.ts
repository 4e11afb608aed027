import type { LmdbBackend } from '../lmdb-backend';
import { decodeJournalRecord, type StoredWrite } from './journal-record';
import { readJournalCuttingTail, type AppendedJournal } from './journal-tail';
import { isResidentKey, type ResidentRows } from './resident-rows';

/** Writes per replay transaction, as journal-replay.ts. */
const REPLAY_WRITES_PER_TRANSACTION = 50_000;

/**
 * Replays the journal of a store with resident rows (resident-rows.ts), which is kept across
 * restarts rather than emptied: its segments hold resident rows that only their owner's snapshot
 * can cover. The tail a crash left is cut first (readJournalCuttingTail). Then, oldest first:
 * every other row goes into the store's rows — again, for records a checkpoint already wrote:
 * whole row versions in order end at the newest — and the resident rows of every record after
 * the owner's snapshot (`coveredThrough`) go to the owner, which holds the snapshot's state. The
 * rows are synced before the journal is appended to again. Resolves to the journal as kept, for
 * the writer to continue (FileWriteJournal.continuing).
 */
export async function replayResidentJournal(
  journalDirectory: string,
  store: LmdbBackend,
  rows: ResidentRows,
): Promise<AppendedJournal> {
  const journal = await readJournalCuttingTail(journalDirectory);
  const coveredThrough = rows.coveredThrough();
  let pending: StoredWrite[] = [];
  let storeWriteCount = 0;
  for (const { sequence, record } of journal.frames) {
    const prepared: unknown[] = [];
    for (const write of decodeJournalRecord(record)) {
      if (!isResidentKey(write.key, rows.keyPrefix)) {
        pending.push(write);
      } else if (sequence > coveredThrough) {
        prepared.push(rows.prepare(write));
      }
    }
    if (sequence > coveredThrough) rows.apply(prepared, sequence);
    if (pending.length >= REPLAY_WRITES_PER_TRANSACTION) {
      storeWriteCount += pending.length;
      await store.applyStoredWrites(pending);
      pending = [];
    }
  }
  storeWriteCount += pending.length;
  if (pending.length > 0) await store.applyStoredWrites(pending);
  if (storeWriteCount > 0) await store.flushed();
  return journal;
}
