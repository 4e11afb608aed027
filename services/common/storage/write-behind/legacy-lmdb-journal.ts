import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database } from 'lmdb';
import { decodeJournalRecord, type StoredWrite } from './journal-record';
import { syncDirectory } from './journal-segment-file';

/** The files of the LMDB environment the journal was before the twenty-seventh session. */
const LEGACY_FILES = ['data.mdb', 'lock.mdb'];

/**
 * The records of a journal written by a version that kept it in an LMDB environment of its own
 * (records keyed by their sequence number, 8 bytes big-endian), oldest first; undefined when
 * `directory` holds none. Read once, at the replay that upgrades a store a crash left with such a
 * journal: nothing writes this form any more.
 */
export async function readLegacyLmdbJournal(
  directory: string,
): Promise<Array<{ sequence: number; writes: StoredWrite[] }> | undefined> {
  if (!existsSync(join(directory, LEGACY_FILES[0]))) return undefined;
  const environment = open({ path: directory, maxDbs: 1, readOnly: true });
  try {
    const records = environment.openDB<Buffer, Buffer>({
      name: 'records',
      keyEncoding: 'binary',
      encoding: 'binary',
    }) as Database<Buffer, Buffer> | undefined;
    // Killed between creating the environment and its table: nothing was ever appended.
    if (records === undefined) return [];
    return Array.from(records.getRange(), ({ key, value }) => ({
      sequence: Number(key.readBigUInt64BE(0)),
      writes: decodeJournalRecord(value),
    }));
  } finally {
    await environment.close();
  }
}

/** Deletes a legacy journal's files (its records are in the store, synced). */
export async function removeLegacyLmdbJournal(directory: string): Promise<void> {
  for (const name of LEGACY_FILES) rmSync(join(directory, name), { force: true });
  // Durably gone: after a power loss it must not come back to replay its writes over newer rows.
  await syncDirectory(directory);
}
