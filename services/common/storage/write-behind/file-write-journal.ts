import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { LmdbSyncMode } from '../lmdb-backend';
import { frameHeaderOf, type JournalFrame } from './journal-frame';
import { decodeJournalRecord, type StoredWrite } from './journal-record';
import {
  removeSegmentsIn,
  segmentPathsIn,
  segmentRecordsIn,
  SegmentFile,
  syncDirectory,
} from './journal-segment-file';
import type { KeptSegment } from './journal-tail';

/** The journal's directory inside the store's. */
export function journalDirectoryOf(storeDirectory: string): string {
  return join(storeDirectory, 'write-journal');
}

/** A segment is closed and a new one begun past this size, so checkpoints can delete old ones. */
const DEFAULT_SEGMENT_BYTES = 16 * 1024 ** 2;

/** The records appended in one synchronous run, written together when it ends. */
interface Group {
  frames: JournalFrame[];
  durable: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The write-behind journal: records appended to segment files (journal-segment-file.ts) on the
 * calling thread. The records appended in one synchronous run — every record of one frontier batch,
 * one per table and phase — are written together when the run ends (a microtask), framed as one
 * group that replay takes whole or not at all (journal-frame.ts). A group is durable against a crash
 * of the process (kill -9) once that write returns — its bytes are in the kernel's page cache,
 * which outlives the process — so its appends resolve without waiting for another thread. That is
 * the promise an LMDB commit with overlapping sync makes (LmdbSyncMode `overlapping`): past a power
 * loss, only what flushed() covered. With `full`, a group resolves only after a data sync that
 * started after its write, shared by every group written meanwhile; a group whose sync failed is
 * refused to its callers but stays in the file, so after a restart it may or may not be applied
 * (nothing after it is: the journal takes no more appends).
 *
 * Until the twenty-seventh session the journal was an LMDB environment of its own: an append
 * queued a put for lmdb-js's writer thread and resolved once that thread had committed it and the
 * main thread came round to the completion — 5–17 ms of every lease's and report's answer in
 * bench:frontier at 1M URLs, for a commit whose own cost is well under a millisecond. The write
 * done here costs the main thread ~2–3 % at 1M URLs; done through libuv's pool instead, the
 * completion waits for the event loop again (docs/frontier-performance.md).
 *
 * A checkpoint removes what it covered by deleting whole segments (removeThrough), and syncs the
 * directory so that no deleted segment comes back after a power loss to replay older versions over
 * newer rows. Records are whole row versions, so the few a kept segment holds before the
 * checkpoint's sequence replay to the same rows again.
 */
export class FileWriteJournal {
  readonly #closed: KeptSegment[] = [];
  #current: SegmentFile | undefined;
  #gathering: Group | undefined;
  /** Set by a failed write or sync: the file may end in part of a group, so nothing may follow. */
  #failure: unknown;
  #isClosed = false;
  /** Directory entries changed since the directory was last synced (not yet durable). */
  #isDirectoryDirty = false;
  /** The directory sync issued last: every later sync waits for it. */
  #directorySync: Promise<void> = Promise.resolve();
  /** `full`: groups written and waiting for a data sync to cover them. */
  #unsynced: Group[] = [];
  #syncing: Promise<void> | undefined;
  /** Closed segments being synced and closed (flushed() waits for them). */
  readonly #closing = new Set<Promise<void>>();

  private constructor(
    private readonly directory: string,
    private readonly syncMode: LmdbSyncMode,
    private readonly segmentBytes: number,
  ) {}

  /**
   * Opens `directory` to append. It must hold no records: whatever a crash left there is replayed
   * into the store (journal-replay.ts) before a writer opens the store. `segmentBytes`: tests.
   */
  static open(
    directory: string,
    syncMode: LmdbSyncMode,
    { segmentBytes = DEFAULT_SEGMENT_BYTES }: { segmentBytes?: number } = {},
  ): FileWriteJournal {
    mkdirSync(directory, { recursive: true });
    const leftover = segmentPathsIn(directory);
    if (leftover.length > 0) {
      throw new Error(
        `write journal ${directory} still holds ${leftover.length} segment(s): ` +
          'it must be replayed into its store before the store is written again',
      );
    }
    return new FileWriteJournal(directory, syncMode, segmentBytes);
  }

  /**
   * Opens `directory` to append after the segments a restart kept (readJournalCuttingTail, which
   * cut their torn tail): the next record goes to a new segment, numbered on from theirs, and
   * removeThrough deletes them as it does the segments this process writes.
   */
  static continuing(
    directory: string,
    syncMode: LmdbSyncMode,
    kept: readonly KeptSegment[],
    { segmentBytes = DEFAULT_SEGMENT_BYTES }: { segmentBytes?: number } = {},
  ): FileWriteJournal {
    const journal = new FileWriteJournal(directory, syncMode, segmentBytes);
    journal.#closed.push(...kept);
    return journal;
  }

  /** The records left in `directory`, oldest first, in whole groups up to the first damage. */
  static *records(directory: string): Generator<{ sequence: number; writes: StoredWrite[] }> {
    for (const { sequence, record } of segmentRecordsIn(directory)) {
      yield { sequence, writes: decodeJournalRecord(record) };
    }
  }

  /** Deletes every segment left in `directory` (after a replay put their records in the store). */
  static async removeAll(directory: string): Promise<void> {
    await removeSegmentsIn(directory);
  }

  /**
   * Appends a record to the group of this synchronous run; resolves once that group is durable per
   * the sync mode. Records keep their append order in the file. A failed write fails its group and
   * every later append.
   */
  append(sequence: number, record: Buffer): Promise<void> {
    if (this.#isClosed) return Promise.reject(new Error('the write journal is closed'));
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    let group = this.#gathering;
    if (group === undefined) {
      group = newGroup();
      this.#gathering = group;
      queueMicrotask(() => this.#writeGathered());
    }
    group.frames.push({ sequence, record });
    return group.durable;
  }

  #writeGathered(): void {
    const group = this.#gathering;
    if (group === undefined) return; // written by close() already
    this.#gathering = undefined;
    try {
      if (this.#failure !== undefined) throw this.#failure;
      const { frames } = group;
      const buffers = frames.flatMap(({ sequence, record }, index) => [
        frameHeaderOf(record, sequence, index === frames.length - 1),
        record,
      ]);
      this.#segmentFor(frames[0].sequence).write(buffers, frames[frames.length - 1].sequence);
    } catch (error) {
      this.#failure ??= error;
      group.reject(error);
      return;
    }
    if (this.syncMode === 'overlapping') {
      group.resolve();
      return;
    }
    this.#unsynced.push(group);
    this.#syncing ??= this.#syncWhileWaiting();
  }

  /** The segment to append `sequence` on: the open one, or a new one once that one is full. */
  #segmentFor(sequence: number): SegmentFile {
    const current = this.#current;
    if (current !== undefined && current.byteCount < this.segmentBytes) return current;
    this.#closeCurrent();
    this.#current = new SegmentFile(this.directory, sequence);
    this.#isDirectoryDirty = true;
    return this.#current;
  }

  /** Closes the open segment in the background; flushed() and close() wait for it. */
  #closeCurrent(): void {
    const current = this.#current;
    if (current === undefined) return;
    this.#current = undefined;
    this.#closed.push({ path: current.path, lastSequence: current.lastSequence });
    const closing = current
      .close()
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => this.#closing.delete(closing));
    this.#closing.add(closing);
  }

  /** `full`: data syncs, each covering the groups written before it started. */
  async #syncWhileWaiting(): Promise<void> {
    while (this.#unsynced.length > 0) {
      const covered = this.#unsynced;
      this.#unsynced = [];
      try {
        await this.#syncAll();
        for (const { resolve } of covered) resolve();
      } catch (error) {
        this.#failure ??= error;
        for (const { reject } of covered) reject(error);
      }
    }
    this.#syncing = undefined;
  }

  /**
   * Every group written so far on disk, and the directory entries of the segments holding them. A
   * failed sync fails the journal for good: after one, the kernel may have dropped the pages it
   * could not write, so what the file holds can no longer be known.
   */
  async #syncAll(): Promise<void> {
    try {
      await Promise.all([...this.#closing, this.#current?.sync()]);
      await this.#syncDirectory();
    } catch (error) {
      this.#failure ??= error;
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Makes the directory's entries durable: a new sync if they changed, else the last one's end. */
  async #syncDirectory(): Promise<void> {
    if (this.#isDirectoryDirty) {
      this.#isDirectoryDirty = false;
      this.#directorySync = syncDirectory(this.directory);
    }
    try {
      await this.#directorySync;
    } catch (error) {
      this.#failure ??= error;
      throw error;
    }
  }

  /**
   * Forgets every record up to and including `sequence` (the store holds them, synced): deletes
   * the segments holding nothing newer, oldest first, and syncs the directory. The open segment,
   * once it holds such records, is closed so that the next checkpoint can delete it — the journal
   * keeps a checkpoint or two of writes, and a replay after a crash has no more than that to do.
   */
  async removeThrough(sequence: number): Promise<void> {
    const current = this.#current;
    if (current !== undefined && current.firstSequence <= sequence) this.#closeCurrent();
    let removedCount = 0;
    while (this.#closed.length > 0 && this.#closed[0].lastSequence <= sequence) {
      const segment = this.#closed.shift() as KeptSegment;
      await rm(segment.path, { force: true });
      removedCount += 1;
    }
    if (removedCount > 0) {
      this.#isDirectoryDirty = true;
      await this.#syncDirectory();
    }
  }

  /** Resolves once every group written so far is synced (past a power loss). */
  async flushed(): Promise<void> {
    await this.#syncAll();
  }

  /** Writes what this run appended, waits for the syncs under way, closes the open segment. */
  async close(): Promise<void> {
    this.#writeGathered();
    this.#isClosed = true;
    await this.#syncing;
    this.#closeCurrent();
    await Promise.all(this.#closing);
  }
}

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const durable = new Promise<void>((resolveGroup, rejectGroup) => {
    resolve = resolveGroup;
    reject = rejectGroup;
  });
  return { frames: [], durable, resolve, reject };
}
