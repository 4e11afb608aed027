/**
 * One journal record: the row writes of one backend call, as they will land in the `rows`
 * database — each key with its enveloped value (lmdb-value-envelope.ts, expiry included), or no
 * value for a delete. Binary, because the journal is on the hot write path:
 *
 *   per write:  key length (u16 BE) · key · stored length (u32 BE; 0xFFFFFFFF = delete) · stored
 */

/** A row write as stored: `stored` undefined deletes the row. */
export interface StoredWrite {
  key: Buffer;
  stored: Buffer | undefined;
  /** The document the write's bytes encode, when its writer gave it (KeyValueWrite.source). */
  source?: unknown;
}

const DELETED = 0xffff_ffff;
const KEY_LENGTH_BYTES = 2;
export const STORED_LENGTH_BYTES = 4;

export function encodeJournalRecord(writes: readonly StoredWrite[]): Buffer {
  return encodeJournalRecordWithLayout(writes).record;
}

/**
 * A record and where each write sits in it: for write i, `keyStarts[i]` and `storedStarts[i]`
 * (the key ends 4 bytes before its stored form begins), and `storedEnds[i]`, -1 for a delete. The
 * write-behind overlay keeps the record and reads its rows there, so a row's bytes are held once.
 */
export interface JournalRecordLayout {
  record: Buffer;
  keyStarts: Int32Array;
  storedStarts: Int32Array;
  storedEnds: Int32Array;
}

export function encodeJournalRecordWithLayout(writes: readonly StoredWrite[]): JournalRecordLayout {
  let byteCount = 0;
  for (const { key, stored } of writes) {
    byteCount += KEY_LENGTH_BYTES + key.length + STORED_LENGTH_BYTES + (stored?.length ?? 0);
  }
  // Never a slice of Node's shared 8 KiB pool: a record outlives the request that wrote it (the
  // overlay holds it until a checkpoint), and a slice would keep its whole slab alive with it.
  const record = Buffer.allocUnsafeSlow(byteCount);
  const keyStarts = new Int32Array(writes.length);
  const storedStarts = new Int32Array(writes.length);
  const storedEnds = new Int32Array(writes.length);
  let offset = 0;
  for (let index = 0; index < writes.length; index += 1) {
    const { key, stored } = writes[index];
    offset = record.writeUInt16BE(key.length, offset);
    keyStarts[index] = offset;
    offset += key.copy(record, offset);
    offset = record.writeUInt32BE(stored === undefined ? DELETED : stored.length, offset);
    storedStarts[index] = offset;
    if (stored !== undefined) offset += stored.copy(record, offset);
    storedEnds[index] = stored === undefined ? -1 : offset;
  }
  return { record, keyStarts, storedStarts, storedEnds };
}

/** The writes of a record, in order; keys and values are copies (the record may be reused). */
export function decodeJournalRecord(record: Buffer): StoredWrite[] {
  const writes: StoredWrite[] = [];
  let offset = 0;
  while (offset < record.length) {
    if (offset + KEY_LENGTH_BYTES > record.length) throw truncated(offset);
    const keyLength = record.readUInt16BE(offset);
    offset += KEY_LENGTH_BYTES;
    if (offset + keyLength + STORED_LENGTH_BYTES > record.length) throw truncated(offset);
    const key = Buffer.from(record.subarray(offset, offset + keyLength));
    offset += keyLength;
    const storedLength = record.readUInt32BE(offset);
    offset += STORED_LENGTH_BYTES;
    if (storedLength === DELETED) {
      writes.push({ key, stored: undefined });
      continue;
    }
    if (offset + storedLength > record.length) throw truncated(offset);
    writes.push({ key, stored: Buffer.from(record.subarray(offset, offset + storedLength)) });
    offset += storedLength;
  }
  return writes;
}

function truncated(offset: number): Error {
  return new Error(`write journal record is truncated at byte ${offset}`);
}
