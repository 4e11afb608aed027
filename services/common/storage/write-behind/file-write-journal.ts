import {
  closeSync,
  existsSync,
  fdatasync,
  fsync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writevSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LmdbSyncMode } from '../lmdb-backend';
import { frameHeaderOf, wholeGroupsIn, type JournalFrame } from './journal-frame';
import { decodeJournalRecord, type StoredWrite } from './journal-record';

const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);

/** The journal's directory inside the store's. */
export function journalDirectoryOf(storeDirectory: string): string {
  return join(storeDirectory, 'write-journal');
}

/** A segment is closed and a new one begun past this size, so checkpoints can delete old ones. */
const SEGMENT_BYTES = 16 * 1024 ** 2;

/** Segment files are named by their first sequence number, so names sort in write order. */
const SEGMENT_NAME = /^([0-9a-f]{12})\.log$/;

function segmentNameOf(firstSequence: number): string {
  return `${firstSequence.toString(16).padStart(12, '0')}.log`;
}

/** One segment file: records from `firstSequence` to `lastSequence`, in order. */
interface Segment {
  path: string;
  firstSequence: number;
  lastSequence: number;
}

interface OpenSegment extends Segment {
  fd: number;
  byteCount: number;
}

/** The records appended in one synchronous run, written together when it ends. */
interface Group {
  frames: JournalFrame[];
  durable: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The segment files in `directory`, oldest first. */
function segmentPathsIn(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => SEGMENT_NAME.test(name))
    .sort()
    .map((name) => join(directory, name));
}

/**
 * The write-behind journal: records appended to segment files on the calling thread. The records
 * appended in one synchronous run — e.g. every write of one frontier batch — are written with one
 * write() when the run ends (a microtask), marked as one group that replay takes whole or not at
 * all (journal-frame.ts). A group is durable against a crash of the process (kill -9) as soon as
 * that write returns — its bytes are in the kernel's page cache, which outlives the process — so
 * its appends resolve without a round trip to another thread. That is the promise an LMDB commit
 * with overlapping sync makes (LmdbSyncMode `overlapping`): past a power loss, only what flushed()
 * covered. With `full`, a group resolves only after a data sync that started after its write,
 * shared by every group written meanwhile.
 *
 * Until the twenty-seventh session the journal was an LMDB environment of its own: an append
 * queued a put for lmdb-js's writer thread and resolved once that thread had committed it and the
 * main thread came round to the completion — 5–17 ms of every lease's and report's answer in
 * bench:frontier at 1M URLs, for a commit whose own cost is well under a millisecond.
 *
 * A checkpoint removes what it covered by deleting whole segments (removeThrough): records are
 * whole row versions, so the few a kept segment holds before the checkpoint's sequence replay to
 * the same rows again.
 */
export class FileWriteJournal {
  readonly #closed: Segment[] = [];
  #current: OpenSegment | undefined;
  #group: Group | undefined;
  /** Set by a failed or short write: the file may end in part of a group, so nothing may follow. */
  #failure: unknown;
  /** Segment files created since the directory was last synced (their names are not yet durable). */
  #isDirectoryDirty = false;
  /** `full`: groups written and waiting for a data sync to cover them. */
  #unsynced: Group[] = [];
  #syncing: Promise<void> | undefined;
  /** Closed segments whose data sync is under way (flushed() waits for them). */
  readonly #closing = new Set<Promise<void>>();

  private constructor(
    private readonly directory: string,
    private readonly syncMode: LmdbSyncMode,
  ) {}

  /**
   * Opens `directory` to append. It must hold no records: whatever a crash left there is replayed
   * into the store (journal-replay.ts) before a writer opens the store.
   */
  static open(directory: string, syncMode: LmdbSyncMode): FileWriteJournal {
    mkdirSync(directory, { recursive: true });
    const leftover = segmentPathsIn(directory);
    if (leftover.length > 0) {
      throw new Error(
        `write journal ${directory} still holds ${leftover.length} segment(s): ` +
          'it must be replayed into its store before the store is written again',
      );
    }
    return new FileWriteJournal(directory, syncMode);
  }

  /** The records left in `directory`, oldest first, in whole groups up to the first damage. */
  static *records(directory: string): Generator<{ sequence: number; writes: StoredWrite[] }> {
    for (const path of segmentPathsIn(directory)) {
      const bytes = readFileSync(path);
      let end = 0;
      for (const { sequence, record } of wholeGroupsIn(bytes)) {
        yield { sequence, writes: decodeJournalRecord(record) };
        end = record.byteOffset - bytes.byteOffset + record.length;
      }
      // A segment that does not end in a whole group is where the writing stopped.
      if (end < bytes.length) return;
    }
  }

  /** Deletes every segment left in `directory` (after a replay put their records in the store). */
  static removeAll(directory: string): void {
    const paths = segmentPathsIn(directory);
    for (const path of paths) rmSync(path);
    if (paths.length > 0) syncDirectory(directory);
  }

  /**
   * Appends a record to the group of this synchronous run; resolves once that group is durable per
   * the sync mode. Records keep their append order in the file. A failed or short write fails its
   * group and every later append.
   */
  append(sequence: number, record: Buffer): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    let group = this.#group;
    if (group === undefined) {
      group = newGroup();
      this.#group = group;
      queueMicrotask(() => this.#writeGroup());
    }
    group.frames.push({ sequence, record });
    return group.durable;
  }

  #writeGroup(): void {
    const group = this.#group;
    if (group === undefined) return; // written by close() already
    this.#group = undefined;
    try {
      if (this.#failure !== undefined) throw this.#failure;
      this.#writeFrames(group.frames);
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

  #writeFrames(frames: readonly JournalFrame[]): void {
    const segment = this.#segmentFor(frames[0].sequence);
    const buffers: Buffer[] = [];
    let byteCount = 0;
    frames.forEach(({ sequence, record }, index) => {
      const header = frameHeaderOf(record, sequence, index === frames.length - 1);
      buffers.push(header, record);
      byteCount += header.length + record.length;
    });
    const written = writevSync(segment.fd, buffers);
    if (written !== byteCount) {
      throw new Error(`write journal: short write (${written} of ${byteCount} bytes)`);
    }
    segment.byteCount += byteCount;
    segment.lastSequence = frames[frames.length - 1].sequence;
  }

  /** The segment to append `sequence` on: the open one, or a new one once that one is full. */
  #segmentFor(sequence: number): OpenSegment {
    const current = this.#current;
    if (current !== undefined && current.byteCount < SEGMENT_BYTES) return current;
    this.#closeCurrent();
    const path = join(this.directory, segmentNameOf(sequence));
    const fd = openSync(path, 'wx');
    this.#isDirectoryDirty = true;
    this.#current = { path, fd, byteCount: 0, firstSequence: sequence, lastSequence: sequence };
    return this.#current;
  }

  /** Closes the open segment: synced first, so flushed() covers it, then its descriptor freed. */
  #closeCurrent(): void {
    const current = this.#current;
    if (current === undefined) return;
    this.#current = undefined;
    const { path, firstSequence, lastSequence, fd } = current;
    this.#closed.push({ path, firstSequence, lastSequence });
    const closing = fdatasyncAsync(fd)
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => {
        closeSync(fd);
        this.#closing.delete(closing);
      });
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

  /** Every group written so far on disk, and the names of the segments holding them. */
  async #syncAll(): Promise<void> {
    const current = this.#current;
    await Promise.all([
      ...this.#closing,
      current === undefined ? undefined : fdatasyncAsync(current.fd),
    ]);
    if (this.#isDirectoryDirty) {
      this.#isDirectoryDirty = false;
      await syncDirectoryAsync(this.directory);
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Segment files the journal holds now (tests: checkpoints delete them). */
  get segmentCount(): number {
    return this.#closed.length + (this.#current === undefined ? 0 : 1);
  }

  /**
   * Forgets every record up to and including `sequence` (the store holds them, synced): deletes
   * the segments holding nothing newer. The open segment, once it holds such records, is closed so
   * that the next checkpoint can delete it — the journal keeps a checkpoint or two of writes, and
   * a replay after a crash has no more than that to do.
   */
  async removeThrough(sequence: number): Promise<void> {
    const current = this.#current;
    if (current !== undefined && current.firstSequence <= sequence) this.#closeCurrent();
    while (this.#closed.length > 0 && this.#closed[0].lastSequence <= sequence) {
      const segment = this.#closed.shift() as Segment;
      rmSync(segment.path, { force: true });
    }
  }

  /** Resolves once every group written so far is synced (past a power loss). */
  async flushed(): Promise<void> {
    await this.#syncAll();
  }

  /** Writes what this run appended, waits for the syncs under way, closes the open segment. */
  async close(): Promise<void> {
    if (this.#group !== undefined) this.#writeGroup();
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

function syncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function syncDirectoryAsync(directory: string): Promise<void> {
  const fd = openSync(directory, 'r');
  try {
    await fsyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}
