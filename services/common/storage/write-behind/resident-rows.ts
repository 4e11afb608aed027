import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyRange } from '../ordered-key-value-backend';
import type { StoredWrite } from './journal-record';
import { journalDirectoryOf } from './file-write-journal';
import { syncDirectory } from './journal-segment-file';

/**
 * Rows a write-behind store journals but never holds (docs/resident-frontier.md): the rows under
 * one key prefix live in their owner's memory — the scheduler's resident url_task store — which
 * snapshots them itself. The store writes them in the same journal records and groups as every
 * other row, so a batch stays all or nothing after a crash; it hands them to their owner once
 * their record is durable, and again on replay after a restart; it keeps the journal's segments
 * until the owner's snapshot covers them; and it refuses to read them.
 *
 * `Prepared` is what the owner makes of a row write when it is issued (a decoded document), so a
 * row the owner cannot hold is refused before anything is journalled, and applying it later —
 * after the acknowledgement's write — cannot fail.
 */
export interface ResidentRows<Prepared = unknown> {
  /** Every row whose key begins with these bytes is resident. */
  readonly keyPrefix: Buffer;
  /** Checks a write of a resident row as it is issued; throws to refuse its whole batch. */
  prepare(write: StoredWrite): Prepared;
  /**
   * Takes the writes of journal record `sequence` once it is durable, every record in journal
   * order — those without resident rows too (none prepared), so that the owner knows how far its
   * state reaches and a snapshot of it covers that far.
   */
  apply(prepared: readonly Prepared[], sequence: number): void;
  /**
   * The newest journal sequence every one of whose resident rows a complete, synced snapshot of
   * the owner holds (0: none). Replay hands the owner only the records after it, and the journal
   * deletes no segment holding a later one.
   */
  coveredThrough(): number;
}

/** A read, scan or compare-and-swap of resident rows: their owner holds them, the store does not. */
export class ResidentRowReadError extends Error {
  constructor(keyPrefix: Buffer) {
    super(
      `rows under ${JSON.stringify(keyPrefix.toString('latin1'))} are resident in this store: ` +
        'read them from their owner, which holds them in memory, not from the store',
    );
    this.name = 'ResidentRowReadError';
  }
}

/** The store's journal carries resident rows, and the opener to write it is not their owner. */
export class ResidentJournalError extends Error {
  constructor(
    readonly journalDirectory: string,
    readonly keyPrefix: string,
  ) {
    super(
      `the write journal ${journalDirectory} carries resident rows under ` +
        `${JSON.stringify(keyPrefix)}, held by their owner and its snapshots, not by the store: ` +
        'open the store to write only with that owner (for the scheduler: ' +
        'SCHEDULER_RESIDENT_URL_TASKS=on or auto, with STORAGE_LMDB_WRITE_BEHIND on)',
    );
    this.name = 'ResidentJournalError';
  }
}

/** Marks a journal as one with resident rows, so that no plain opener deletes it after replay. */
const MARKER_FILE = 'resident-rows';

/** The resident key prefix the journal in `journalDirectory` is marked with, if any. */
export function residentKeyPrefixOf(journalDirectory: string): string | undefined {
  const path = join(journalDirectory, MARKER_FILE);
  return existsSync(path) ? readFileSync(path, 'latin1') : undefined;
}

/**
 * What refuses an opener of the store in `storeDirectory` that is not the owner of its resident
 * rows — when its journal carries any; undefined otherwise.
 */
export function residentJournalErrorOf(storeDirectory: string): ResidentJournalError | undefined {
  const journalDirectory = journalDirectoryOf(storeDirectory);
  const keyPrefix = residentKeyPrefixOf(journalDirectory);
  return keyPrefix === undefined
    ? undefined
    : new ResidentJournalError(journalDirectory, keyPrefix);
}

/**
 * Marks the journal before any resident row is written to it (synced: the mark must outlive a
 * power loss that the rows outlive), or checks the mark a previous open left: a store's resident
 * rows keep their prefix for good.
 */
export async function markResidentJournal(
  journalDirectory: string,
  keyPrefix: Buffer,
): Promise<void> {
  const prefix = keyPrefix.toString('latin1');
  const marked = residentKeyPrefixOf(journalDirectory);
  if (marked === prefix) return;
  if (marked !== undefined) {
    throw new ResidentJournalError(journalDirectory, marked);
  }
  writeFileSync(join(journalDirectory, MARKER_FILE), prefix, { encoding: 'latin1', flush: true });
  await syncDirectory(journalDirectory);
}

/**
 * Takes the mark off a journal whose resident rows their owner has handed back to the store (the
 * scheduler's move of url_task back into LMDB): from then on the store is opened as one that never
 * had any. Synced, as the mark was; the journal must hold no segment by then.
 */
export async function unmarkResidentJournal(journalDirectory: string): Promise<void> {
  const path = join(journalDirectory, MARKER_FILE);
  if (!existsSync(path)) return;
  rmSync(path);
  await syncDirectory(journalDirectory);
}

export function isResidentKey(key: Buffer, keyPrefix: Buffer): boolean {
  return key.length >= keyPrefix.length && keyPrefix.compare(key, 0, keyPrefix.length) === 0;
}

/** Whether [start, end) holds any key under `keyPrefix`. */
export function rangeHoldsResidentKeys({ start, end }: KeyRange, keyPrefix: Buffer): boolean {
  // Keys under the prefix run from the prefix itself up to (not including) its successor.
  if (Buffer.compare(end, keyPrefix) <= 0) return false;
  if (isResidentKey(start, keyPrefix)) return true;
  return Buffer.compare(start, keyPrefix) < 0;
}
