import { crc32 } from 'node:zlib';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ResidentUrlStore } from './resident-url-store';
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

/** Reads a snapshot writeResidentSnapshot wrote; ResidentSnapshotError when it is not whole. */
export async function readResidentSnapshot(
  path: string,
  options: ResidentUrlTableOptions = {},
): Promise<ResidentSnapshot> {
  const bytes = await readFile(path);
  const refuse = (reason: string) => new ResidentSnapshotError(path, reason);
  if (bytes.length < MAGIC.length + U32_BYTES || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw refuse('not a resident snapshot');
  }
  const checksumAt = bytes.length - U32_BYTES;
  if (crc32(bytes.subarray(0, checksumAt)) !== bytes.readUInt32LE(checksumAt)) {
    throw refuse('its checksum does not match (a torn or damaged file)');
  }
  let offset = MAGIC.length;
  const take = (length: number): Buffer => {
    if (offset + length > checksumAt) throw refuse('it ends inside a record');
    const taken = bytes.subarray(offset, offset + length);
    offset += length;
    return taken;
  };
  const slices: ResidentSlice[] = [];
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
      let store: ResidentUrlStore;
      try {
        store = ResidentUrlStore.fromSlices(
          slices,
          {
            domainList: trailer.domain_list,
            urlStateList: trailer.url_state_list,
            reasonList: trailer.reason_list,
          },
          options,
        );
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
    if (kind !== SLICE_RECORD) throw refuse(`a record of unknown kind ${kind}`);
    const { first_slot, slot_count, text_byte_count } = header as SliceHeader;
    const columns = ResidentUrlTable.sliceColumnByteCounts(slot_count).map((length) =>
      take(length),
    );
    slices.push({
      firstSlot: first_slot,
      slotCount: slot_count,
      columns,
      text: take(text_byte_count),
    });
  }
}
