import { crc32 } from 'node:zlib';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ResidentUrlStore } from './resident-url-store';
import { checksumOfFile, checksumOnThread } from './snapshot-checksum';
import { urlSlotEntriesOnThread } from './url-slot-entries';
import {
  ResidentUrlTable,
  ResidentValueError,
  type ResidentSlice,
  type ResidentUrlTableOptions,
} from './resident-url-table';

/*
 * A snapshot of the resident url store in one file, written while the store goes on changing:
 *
 *   magic (8 bytes)
 *   per slice:  kind 1 (u32 LE) · header length (u32 LE) · header (JSON: first_slot, slot_count,
 *               text_byte_count) · each column's bytes for those slots · their text
 *   end:        kind 2 · trailer length · trailer (JSON: the code lists, slot and slice counts,
 *               the byte order, the journal sequence the snapshot covers)
 *   CRC-32 of everything before it (u32 LE)
 *
 * A slice is a copy of a range of slots taken in one turn of the event loop (ResidentUrlTable.slice),
 * so each slot is written whole, as it stood at some moment during the snapshot; slots taken
 * earlier may have changed since. That is what a journal replayed from the snapshot's start
 * repairs (docs/resident-frontier.md, Durability): its records are whole documents. Slots added
 * after the snapshot began are left to the journal too. The code lists come last: codes only grow,
 * so they cover every slice. Columns are typed arrays in the writing machine's byte order, which
 * the trailer records: a snapshot is read back on a machine of the same order, or refused. The
 * indexes are not written: they follow from the documents.
 */

const MAGIC = Buffer.from('RSTSNAP2', 'latin1');
const U32_BYTES = 4;
const SLICE_RECORD = 1;
const END_RECORD = 2;
/** Slots per slice: ~3 MB copied in one turn (about a millisecond), then written while others run. */
const DEFAULT_SLICE_SLOT_COUNT = 16_384;

/** A snapshot file that cannot be read back as written: refused whole, never half-applied. */
export class ResidentSnapshotError extends Error {
  constructor(path: string, reason: string) {
    super(`resident snapshot ${path}: ${reason}`);
    this.name = 'ResidentSnapshotError';
  }
}

interface SliceHeader {
  first_slot: number;
  slot_count: number;
  text_byte_count: number;
}

interface SnapshotTrailer {
  is_little_endian: boolean;
  journal_sequence: number;
  slot_count: number;
  slice_count: number;
  domain_list: string[];
  url_state_list: string[];
  reason_list: string[];
}

const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(U32_BYTES);
  bytes.writeUInt32LE(value);
  return bytes;
}

function recordParts(kind: number, header: object): Buffer[] {
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  return [u32(kind), u32(headerBytes.length), headerBytes];
}

export interface ResidentSnapshotOptions {
  /** Slots copied per turn. */
  sliceSlotCount?: number;
  /**
   * The newest journal record whose effects the store held when the snapshot began: replay after
   * a restart starts after it (resident-rows.ts, coveredThrough). Default 0.
   */
  journalSequence?: number;
  /**
   * Awaited after the last slice is written and before the file counts (synced and renamed): the
   * write-behind store's flushed(), so that no snapshot holds a change whose journal record a power
   * loss could still take — the keyspace rows of the same records would be lost with it.
   */
  beforeCommit?: () => Promise<void>;
}

/** A snapshot read back: the store, and the journal sequence it covers. */
export interface ResidentSnapshot {
  store: ResidentUrlStore;
  journalSequence: number;
}

/**
 * Writes a snapshot of `store` to `path`: the slots it holds when called, a slice at a time with
 * the store free to change between slices; to a temporary file, synced, then renamed over `path`
 * and the directory synced — a crash leaves the previous snapshot or this one, never a part.
 * Resolves to the file's size in bytes.
 */
export async function writeResidentSnapshot(
  store: ResidentUrlStore,
  path: string,
  {
    sliceSlotCount = DEFAULT_SLICE_SLOT_COUNT,
    journalSequence = 0,
    beforeCommit,
  }: ResidentSnapshotOptions = {},
): Promise<number> {
  const temporaryPath = `${path}.tmp`;
  await mkdir(dirname(path), { recursive: true });
  const file = await open(temporaryPath, 'w');
  let checksum = 0;
  let byteCount = 0;
  const write = async (parts: Uint8Array[]) => {
    for (const part of parts) checksum = crc32(part, checksum);
    const { bytesWritten } = await file.writev(parts);
    byteCount += bytesWritten;
  };
  try {
    await write([MAGIC]);
    const endSlot = store.table.size;
    let sliceCount = 0;
    for (let first = 0; first < endSlot; sliceCount += 1) {
      const slice = store.table.slice(first, Math.min(sliceSlotCount, endSlot - first));
      const header: SliceHeader = {
        first_slot: slice.firstSlot,
        slot_count: slice.slotCount,
        text_byte_count: slice.text.length,
      };
      await write([...recordParts(SLICE_RECORD, header), ...slice.columns, slice.text]);
      first += slice.slotCount;
    }
    const codeLists = store.table.codeLists();
    const trailer: SnapshotTrailer = {
      is_little_endian: IS_LITTLE_ENDIAN,
      journal_sequence: journalSequence,
      slot_count: endSlot,
      slice_count: sliceCount,
      domain_list: codeLists.domainList,
      url_state_list: codeLists.urlStateList,
      reason_list: codeLists.reasonList,
    };
    await write(recordParts(END_RECORD, trailer));
    await write([u32(checksum)]);
    await beforeCommit?.();
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporaryPath, path);
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
  return byteCount;
}

/** Where a slice's bytes lie in the file, as the first pass found them. */
interface SlicePlace {
  header: SliceHeader;
  /** File offset of its first column's bytes; the text follows the columns. */
  at: number;
  byteCount: number;
}

type Refuse = (reason: string) => ResidentSnapshotError;

/** How readResidentSnapshot reads: the table's options, and where the checksum is computed. */
export interface ReadResidentSnapshotOptions extends ResidentUrlTableOptions {
  /**
   * Files of at least this many bytes are checksummed on a thread of their own while this one
   * loads them (snapshot-checksum.ts); smaller ones here, first — a thread costs more than their
   * checksum. Default 16 MiB: a snapshot of ~70,000 URLs.
   */
  checksumThreadFromBytes?: number;
  /** Snapshots of at least this many slots build their url_hash index on a thread (250,000). */
  indexThreadFromSlots?: number;
}

const DEFAULT_CHECKSUM_THREAD_FROM_BYTES = 16 * 1024 * 1024;

/**
 * Snapshots of at least this many slots have their url_hash index built on a thread of its own
 * (ResidentUrlStore.fromSlicesIndexedBy) — smaller ones here: below it the ordering indexes are
 * built in less time than a thread takes to start and build the index.
 */
const DEFAULT_INDEX_THREAD_FROM_SLOTS = 250_000;

/**
 * Reads a snapshot writeResidentSnapshot wrote; ResidentSnapshotError when it is not whole.
 *
 * Never holding the file whole: the records' headers, then the slices one at a time into one
 * buffer, which the table copies from before it takes the next (ResidentUrlTable.fromSlices). Read
 * into memory whole, a 1M-URL snapshot cost the start ~230 MB more memory, touched afresh, beside
 * the columns it fills. The checksum of a large file is computed on another thread meanwhile: what
 * was loaded counts only once it matches, and a load that fails on a damaged file is refused for
 * its checksum. The reads are synchronous: this runs while the scheduler starts, before it serves
 * anything.
 */
export async function readResidentSnapshot(
  path: string,
  options: ReadResidentSnapshotOptions = {},
): Promise<ResidentSnapshot> {
  const refuse: Refuse = (reason) => new ResidentSnapshotError(path, reason);
  const fd = openSync(path, 'r');
  try {
    const fileByteCount = fstatSync(fd).size;
    if (fileByteCount < MAGIC.length + U32_BYTES) throw refuse('not a resident snapshot');
    if (!readExactly(fd, 0, MAGIC.length, refuse).equals(MAGIC)) {
      throw refuse('not a resident snapshot');
    }
    const checksumAt = fileByteCount - U32_BYTES;
    const expected = readExactly(fd, checksumAt, U32_BYTES, refuse).readUInt32LE();
    const checksum = checksumWhileLoading(path, fd, checksumAt, options);
    const isIntact = async () => (await checksum) === expected;
    let snapshot: ResidentSnapshot;
    try {
      snapshot = await loadRecords(fd, checksumAt, refuse, options);
    } catch (error) {
      // A damaged file may fail anywhere in its records; its checksum is the reason to give.
      if (!(await isIntact())) throw refuse(CHECKSUM_MISMATCH);
      throw error;
    }
    if (!(await isIntact())) throw refuse(CHECKSUM_MISMATCH);
    return snapshot;
  } finally {
    closeSync(fd);
  }
}

const CHECKSUM_MISMATCH = 'its checksum does not match (a torn or damaged file)';

/**
 * The CRC-32 of the file's first `byteCount` bytes: on a thread of its own for a large file (here
 * if that thread fails: the file is still open), here at once for a small one.
 */
function checksumWhileLoading(
  path: string,
  fd: number,
  byteCount: number,
  { checksumThreadFromBytes = DEFAULT_CHECKSUM_THREAD_FROM_BYTES }: ReadResidentSnapshotOptions,
): Promise<number> {
  if (byteCount < checksumThreadFromBytes) return Promise.resolve(checksumOfFile(fd, byteCount));
  return checksumOnThread({ path, byteCount }).catch(() => checksumOfFile(fd, byteCount));
}

/** The store of the file's records, checked as far as they can be without the checksum. */
async function loadRecords(
  fd: number,
  checksumAt: number,
  refuse: Refuse,
  {
    indexThreadFromSlots = DEFAULT_INDEX_THREAD_FROM_SLOTS,
    ...options
  }: ReadResidentSnapshotOptions,
): Promise<ResidentSnapshot> {
  const { slices, trailer } = recordsOf(fd, checksumAt, refuse);
  const codeLists = {
    domainList: trailer.domain_list,
    urlStateList: trailer.url_state_list,
    reasonList: trailer.reason_list,
  };
  let store: ResidentUrlStore;
  try {
    store =
      trailer.slot_count >= indexThreadFromSlots
        ? await ResidentUrlStore.fromSlicesIndexedBy(
            slicesOf(fd, slices, refuse),
            codeLists,
            options,
            urlSlotEntriesOnThread,
          )
        : ResidentUrlStore.fromSlices(slicesOf(fd, slices, refuse), codeLists, options);
  } catch (error) {
    if (!(error instanceof ResidentValueError)) throw error;
    throw refuse(error.message);
  }
  if (store.size !== trailer.slot_count) throw refuse('its slices do not hold every slot');
  if (!Number.isSafeInteger(trailer.journal_sequence) || trailer.journal_sequence < 0) {
    throw refuse('it names no journal sequence');
  }
  return { store, journalSequence: trailer.journal_sequence };
}

/** `byteCount` bytes at `position`, or the file refused: it ends before them. */
function readExactly(
  fd: number,
  position: number,
  byteCount: number,
  refuse: Refuse,
  into: Buffer = Buffer.allocUnsafe(byteCount),
): Buffer {
  const target = into.subarray(0, byteCount);
  let done = 0;
  while (done < byteCount) {
    const read = readSync(fd, target, done, byteCount - done, position + done);
    if (read === 0) throw refuse('it ends inside a record');
    done += read;
  }
  return target;
}

/** The slices' places and the trailer, from each record's header. */
function recordsOf(
  fd: number,
  checksumAt: number,
  refuse: Refuse,
): { slices: SlicePlace[]; trailer: SnapshotTrailer } {
  const slices: SlicePlace[] = [];
  let offset = MAGIC.length;
  const take = (length: number): Buffer => {
    if (offset + length > checksumAt) throw refuse('it ends inside a record');
    const taken = readExactly(fd, offset, length, refuse);
    offset += length;
    return taken;
  };
  for (;;) {
    const kind = take(U32_BYTES).readUInt32LE();
    const header: unknown = JSON.parse(take(take(U32_BYTES).readUInt32LE()).toString('utf8'));
    if (kind === END_RECORD) {
      const trailer = header as SnapshotTrailer;
      if (trailer.is_little_endian !== IS_LITTLE_ENDIAN) {
        throw refuse('written on a machine of the other byte order');
      }
      if (offset !== checksumAt) throw refuse('it holds more than its records');
      if (trailer.slice_count !== slices.length) throw refuse('its slices are not all there');
      return { slices, trailer };
    }
    if (kind !== SLICE_RECORD) throw refuse(`a record of unknown kind ${kind}`);
    const sliceHeader = header as SliceHeader;
    const byteCount =
      ResidentUrlTable.sliceColumnByteCounts(sliceHeader.slot_count).reduce(
        (sum, length) => sum + length,
        0,
      ) + sliceHeader.text_byte_count;
    if (!(byteCount >= 0) || offset + byteCount > checksumAt) {
      throw refuse('it ends inside a record');
    }
    slices.push({ header: sliceHeader, at: offset, byteCount });
    offset += byteCount;
  }
}

/**
 * The slices read one at a time into one buffer: each is valid until the next is taken, which is
 * all ResidentUrlTable.fromSlices needs — it copies a slice's columns and text as it loads it.
 */
function* slicesOf(
  fd: number,
  slices: readonly SlicePlace[],
  refuse: Refuse,
): Generator<ResidentSlice> {
  const buffer = Buffer.allocUnsafe(Math.max(0, ...slices.map((slice) => slice.byteCount)));
  for (const { header, at, byteCount } of slices) {
    const bytes = readExactly(fd, at, byteCount, refuse, buffer);
    let offset = 0;
    const columns = ResidentUrlTable.sliceColumnByteCounts(header.slot_count).map((length) => {
      const column = bytes.subarray(offset, offset + length);
      offset += length;
      return column;
    });
    yield {
      firstSlot: header.first_slot,
      slotCount: header.slot_count,
      columns,
      text: bytes.subarray(offset, offset + header.text_byte_count),
    };
  }
}
