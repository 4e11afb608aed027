import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { LmdbSyncMode } from '../lmdb-backend';
import { decodeJournalRecord, type StoredWrite } from './journal-record';

/** The journal's own LMDB environment, a directory inside the store's. */
export function journalDirectoryOf(storeDirectory: string): string {
  return join(storeDirectory, 'write-journal');
}

/** Address space of the journal's map: virtual only; the journal holds seconds of writes. */
const JOURNAL_MAP_SIZE_BYTES = 16 * 1024 ** 3;

function sequenceKey(sequence: number): Buffer {
  const key = Buffer.allocUnsafe(8);
  key.writeBigUInt64BE(BigInt(sequence));
  return key;
}

/**
 * An append-only log of row writes in an LMDB environment of its own. Its own environment means its
 * own writer thread: appending a record (a few sequential pages and a small sync) never waits
 * behind the store's large checkpoint transactions, which is the point of writing behind.
 *
 * Records are keyed by a sequence number (8 bytes, big-endian), so every append lands on the
 * rightmost page of the B-tree. A record is removed once the store's `rows` hold its writes.
 */
export class LmdbWriteJournal {
  readonly #environment: RootDatabase;
  readonly #records: Database<Buffer, Buffer>;

  private constructor(directory: string, syncMode: LmdbSyncMode) {
    this.#environment = open({
      path: directory,
      overlappingSync: syncMode === 'overlapping',
      mapSize: JOURNAL_MAP_SIZE_BYTES,
      maxDbs: 1,
    });
    this.#records = this.#environment.openDB<Buffer, Buffer>({
      name: 'records',
      keyEncoding: 'binary',
      encoding: 'binary',
    });
  }

  static open(directory: string, syncMode: LmdbSyncMode): LmdbWriteJournal {
    return new LmdbWriteJournal(directory, syncMode);
  }

  /** Opens the journal only when one was ever written in `directory`. */
  static openExisting(directory: string, syncMode: LmdbSyncMode): LmdbWriteJournal | undefined {
    return existsSync(directory) ? new LmdbWriteJournal(directory, syncMode) : undefined;
  }

  /**
   * Queues a record; resolves once it is committed (per the sync mode, as LmdbBackend's writes).
   * Records appended in one synchronous run commit in one transaction, in order.
   */
  append(sequence: number, record: Buffer): Promise<void> {
    return this.#records.put(sequenceKey(sequence), record).then(() => undefined);
  }

  /** Every record, oldest first, as the writes it carries. */
  *records(): Generator<{ sequence: number; writes: StoredWrite[] }> {
    for (const { key, value } of this.#records.getRange()) {
      yield { sequence: Number(key.readBigUInt64BE(0)), writes: decodeJournalRecord(value) };
    }
  }

  /** Removes every record up to and including `sequence` (one transaction). */
  async removeThrough(sequence: number): Promise<void> {
    await this.#records.transaction(() => {
      const end = sequenceKey(sequence + 1);
      const keys = Array.from(this.#records.getKeys({ end }), (key) => Buffer.from(key));
      for (const key of keys) void this.#records.remove(key);
    });
  }

  /** Resolves once every committed record is also synced. */
  async flushed(): Promise<void> {
    await this.#records.flushed;
  }

  async close(): Promise<void> {
    await this.#records.committed;
    await this.#environment.close();
  }
}
