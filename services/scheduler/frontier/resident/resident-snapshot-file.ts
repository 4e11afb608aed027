import { crc32 } from 'node:zlib';
import { open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ResidentUrlStore } from './resident-url-store';
import type { ResidentTableImage, ResidentUrlTableOptions } from './resident-url-table';

/*
 * A snapshot of the resident url store in one file:
 *
 *   magic (8 bytes) · header length (u32 LE) · header (JSON) ·
 *   per section: byte length (u32 LE) · bytes ·
 *   CRC-32 of everything before it (u32 LE)
 *
 * The header names the codes' strings and how many sections follow; the sections are the table's
 * columns chunk by chunk, then its text (ResidentTableImage). Columns are typed arrays in the
 * writing machine's byte order, which the header records: a snapshot is read back on a machine of
 * the same order, or refused. The indexes are not written: they follow from the documents.
 */

const MAGIC = Buffer.from('RSTSNAP1', 'latin1');
const U32_BYTES = 4;

/** A snapshot file that cannot be read back as written: refused whole, never half-applied. */
export class ResidentSnapshotError extends Error {
  constructor(path: string, reason: string) {
    super(`resident snapshot ${path}: ${reason}`);
    this.name = 'ResidentSnapshotError';
  }
}

interface SnapshotHeader {
  is_little_endian: boolean;
  slot_count: number;
  domain_list: string[];
  url_state_list: string[];
  reason_list: string[];
  text_live_byte_count: number;
  column_section_count: number;
  text_section_count: number;
}

const IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function u32(value: number): Buffer {
  const bytes = Buffer.alloc(U32_BYTES);
  bytes.writeUInt32LE(value);
  return bytes;
}

/**
 * Writes `store` to `path`: to a temporary file, synced, then renamed over `path` and the directory
 * synced — a crash leaves the previous snapshot or this one, never a part. The store must not
 * change until the promise settles (its columns are written from where they are). Resolves to the
 * file's size in bytes.
 */
export async function writeResidentSnapshot(
  store: ResidentUrlStore,
  path: string,
): Promise<number> {
  const image = store.table.image();
  const header: SnapshotHeader = {
    is_little_endian: IS_LITTLE_ENDIAN,
    slot_count: image.slotCount,
    domain_list: image.domainList,
    url_state_list: image.urlStateList,
    reason_list: image.reasonList,
    text_live_byte_count: image.textLiveByteCount,
    column_section_count: image.columnSections.length,
    text_section_count: image.textSections.length,
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const parts: Uint8Array[] = [MAGIC, u32(headerBytes.length), headerBytes];
  for (const section of [...image.columnSections, ...image.textSections]) {
    parts.push(u32(section.byteLength), section);
  }
  let checksum = 0;
  for (const part of parts) checksum = crc32(part, checksum);
  parts.push(u32(checksum));
  const temporaryPath = `${path}.tmp`;
  const file = await open(temporaryPath, 'w');
  let byteCount = 0;
  try {
    // writev takes at most 1024 buffers a call.
    for (let first = 0; first < parts.length; first += 1024) {
      const { bytesWritten } = await file.writev(parts.slice(first, first + 1024));
      byteCount += bytesWritten;
    }
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
): Promise<ResidentUrlStore> {
  const bytes = await readFile(path);
  const refuse = (reason: string) => new ResidentSnapshotError(path, reason);
  if (
    bytes.length < MAGIC.length + 2 * U32_BYTES ||
    !bytes.subarray(0, MAGIC.length).equals(MAGIC)
  ) {
    throw refuse('not a resident snapshot');
  }
  const checksumAt = bytes.length - U32_BYTES;
  if (crc32(bytes.subarray(0, checksumAt)) !== bytes.readUInt32LE(checksumAt)) {
    throw refuse('its checksum does not match (a torn or damaged file)');
  }
  let offset = MAGIC.length;
  const headerLength = bytes.readUInt32LE(offset);
  offset += U32_BYTES;
  const header = JSON.parse(
    bytes.toString('utf8', offset, offset + headerLength),
  ) as SnapshotHeader;
  offset += headerLength;
  if (header.is_little_endian !== IS_LITTLE_ENDIAN) {
    throw refuse('written on a machine of the other byte order');
  }
  const sections: Uint8Array[] = [];
  const sectionCount = header.column_section_count + header.text_section_count;
  for (let index = 0; index < sectionCount; index += 1) {
    if (offset + U32_BYTES > checksumAt) throw refuse('it ends before its last section');
    const length = bytes.readUInt32LE(offset);
    offset += U32_BYTES;
    if (offset + length > checksumAt) throw refuse('it ends inside a section');
    sections.push(bytes.subarray(offset, offset + length));
    offset += length;
  }
  if (offset !== checksumAt) throw refuse('it holds more than its sections');
  const image: ResidentTableImage = {
    slotCount: header.slot_count,
    domainList: header.domain_list,
    urlStateList: header.url_state_list,
    reasonList: header.reason_list,
    textLiveByteCount: header.text_live_byte_count,
    columnSections: sections.slice(0, header.column_section_count),
    textSections: sections.slice(header.column_section_count),
  };
  return ResidentUrlStore.fromImage(image, options);
}
