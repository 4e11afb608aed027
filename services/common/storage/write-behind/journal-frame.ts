import { crc32 } from 'node:zlib';

/**
 * How a record sits in a journal segment file (file-write-journal.ts): a header, then the record.
 *
 *   record length (u32 BE) · CRC-32 (u32 BE) of the rest of the header and the record ·
 *   sequence number (u48 BE) · flags (u8: GROUP_END)
 *
 * The length finds a record cut short: a write() to a file may end early when a fatal signal
 * (kill -9) arrives mid-copy. The checksum finds one whose bytes a power loss left unwritten. The
 * group flag marks the last record of a group written with one write() — the records issued in one
 * synchronous run, e.g. every write of one frontier batch — so that a group counts whole or not at
 * all, as the records of one LMDB transaction did.
 */
export const FRAME_HEADER_BYTES = 15;
const CHECKSUM_OFFSET = 4;
const CHECKED_OFFSET = 8;
const SEQUENCE_BYTES = 6;
const FLAGS_OFFSET = 14;
const GROUP_END = 1;

/** The header of `record` as the `sequence`-th record; `isGroupEnd`: the last of its group. */
export function frameHeaderOf(record: Buffer, sequence: number, isGroupEnd: boolean): Buffer {
  const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
  header.writeUInt32BE(record.length, 0);
  header.writeUIntBE(sequence, CHECKED_OFFSET, SEQUENCE_BYTES);
  header[FLAGS_OFFSET] = isGroupEnd ? GROUP_END : 0;
  header.writeUInt32BE(checksumOf(header, record), CHECKSUM_OFFSET);
  return header;
}

function checksumOf(header: Buffer, record: Buffer): number {
  return crc32(record, crc32(header.subarray(CHECKED_OFFSET, FRAME_HEADER_BYTES)));
}

export interface JournalFrame {
  sequence: number;
  record: Buffer;
}

/**
 * The records of `bytes` (a segment file) in whole groups, in order: reading stops at the first
 * frame cut short or damaged, and the records of a group whose end was not reached are left out —
 * never acknowledged, since a group is acknowledged once its one write() returned.
 */
export function* wholeGroupsIn(bytes: Buffer): Generator<JournalFrame> {
  for (const { frames } of framedGroupsIn(bytes)) yield* frames;
}

/** A whole group of a segment file and the byte offset just past its last frame. */
export interface FramedGroup {
  frames: JournalFrame[];
  endOffset: number;
}

/** wholeGroupsIn's groups one by one, each with where it ends (where a journal may be cut). */
export function* framedGroupsIn(bytes: Buffer): Generator<FramedGroup> {
  let frames: JournalFrame[] = [];
  let offset = 0;
  while (offset + FRAME_HEADER_BYTES <= bytes.length) {
    const end = offset + FRAME_HEADER_BYTES + bytes.readUInt32BE(offset);
    if (end > bytes.length) return;
    const header = bytes.subarray(offset, offset + FRAME_HEADER_BYTES);
    const record = bytes.subarray(offset + FRAME_HEADER_BYTES, end);
    if (checksumOf(header, record) !== header.readUInt32BE(CHECKSUM_OFFSET)) return;
    frames.push({ sequence: header.readUIntBE(CHECKED_OFFSET, SEQUENCE_BYTES), record });
    offset = end;
    if ((header[FLAGS_OFFSET] & GROUP_END) !== 0) {
      yield { frames, endOffset: offset };
      frames = [];
    }
  }
}
