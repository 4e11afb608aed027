import {
  closeSync,
  existsSync,
  fdatasync,
  fsync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writevSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { wholeGroupsIn, type JournalFrame } from './journal-frame';

const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);

/** Segment files are named by their first sequence number, so names sort in write order. */
const SEGMENT_NAME = /^([0-9a-f]{12})\.log$/;

function segmentNameOf(firstSequence: number): string {
  return `${firstSequence.toString(16).padStart(12, '0')}.log`;
}

/** The segment files in `directory`, oldest first. */
export function segmentPathsIn(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => SEGMENT_NAME.test(name))
    .sort()
    .map((name) => join(directory, name));
}

/**
 * The records of the segments in `directory`, oldest first, in whole groups: reading ends at the
 * first frame cut short or damaged (journal-frame.ts), and with it the journal — a segment that
 * does not end in a whole group is where the writing stopped.
 */
export function* segmentRecordsIn(directory: string): Generator<JournalFrame> {
  for (const path of segmentPathsIn(directory)) {
    const bytes = readFileSync(path);
    let end = 0;
    for (const frame of wholeGroupsIn(bytes)) {
      yield frame;
      end = frame.record.byteOffset - bytes.byteOffset + frame.record.length;
    }
    if (end < bytes.length) return;
  }
}

/**
 * Deletes the segments in `directory`, newest first, and syncs the directory: a crash halfway
 * leaves the oldest ones, which replay again to the same rows — never newer records without the
 * older ones before them.
 */
export async function removeSegmentsIn(directory: string): Promise<void> {
  const paths = segmentPathsIn(directory);
  for (const path of paths.reverse()) rmSync(path);
  if (paths.length > 0) await syncDirectory(directory);
}

/** Makes `directory`'s entries (files created or deleted in it) durable. */
export async function syncDirectory(directory: string): Promise<void> {
  const fd = openSync(directory, 'r');
  try {
    await fsyncAsync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * One segment file open for appending: the records from `firstSequence` to `lastSequence`. Its
 * descriptor is closed only after every data sync issued on it has settled, so a sync never runs
 * on a closed descriptor — or on another file that reused its number.
 */
export class SegmentFile {
  readonly path: string;
  readonly #fd: number;
  #byteCount = 0;
  lastSequence: number;
  readonly #syncs = new Set<Promise<void>>();

  constructor(
    directory: string,
    readonly firstSequence: number,
  ) {
    this.path = join(directory, segmentNameOf(firstSequence));
    this.#fd = openSync(this.path, 'wx');
    this.lastSequence = firstSequence;
  }

  get byteCount(): number {
    return this.#byteCount;
  }

  /** Writes `buffers` (one group) at the end; throws on a failed or short write. */
  write(buffers: Buffer[], lastSequence: number): void {
    const byteCount = buffers.reduce((sum, buffer) => sum + buffer.length, 0);
    // libuv writes more than 1024 buffers in several calls and goes on after a partial one; a
    // short count here is an error (disk full), and the group's end mark was not written whole.
    const written = writevSync(this.#fd, buffers);
    if (written !== byteCount) {
      throw new Error(`write journal: short write (${written} of ${byteCount} bytes)`);
    }
    this.#byteCount += byteCount;
    this.lastSequence = lastSequence;
  }

  /** A data sync of everything written so far. */
  sync(): Promise<void> {
    const sync = fdatasyncAsync(this.#fd);
    this.#syncs.add(sync);
    const forget = () => this.#syncs.delete(sync);
    sync.then(forget, forget);
    return sync;
  }

  /** Syncs the file, then closes it, once the syncs under way settled; rejects if either fails. */
  async close(): Promise<void> {
    try {
      await Promise.allSettled([...this.#syncs]);
      await this.sync();
    } finally {
      closeSync(this.#fd);
    }
  }
}
