import type { Database } from 'lmdb';
import { LOWEST_BINARY_KEY } from './lmdb-pooled-binary';
import { EXPIRY_PREFIX_BYTES, encodeExpiry, expiresAtMsOf } from './lmdb-value-envelope';

/*
 * A second LMDB database listing rows by expiry time, so sweeping expired rows reads only rows that
 * are due instead of walking the whole store. Key: [expires_at ms, 6 bytes BE][row key]; value:
 * empty. Entries are never updated in place: overwriting or deleting a row leaves its old entry
 * behind, and the sweep drops such stale entries when their time comes (it deletes a row only if
 * the row still carries that exact expiry). So the index may hold extra entries, never miss one.
 */

const NO_VALUE = Buffer.alloc(0);

export type BinaryDatabase = Database<Buffer, Buffer>;

export function expiryIndexKey(expiresAtMs: number, rowKey: Buffer): Buffer {
  return Buffer.concat([encodeExpiry(expiresAtMs), rowKey]);
}

/** Queues the index entry of a row written with a TTL (in the caller's transaction or batch). */
export function indexExpiry(
  expiryIndex: BinaryDatabase,
  expiresAtMs: number,
  rowKey: Buffer,
): Promise<boolean> | undefined {
  return expiresAtMs === 0
    ? undefined
    : expiryIndex.put(expiryIndexKey(expiresAtMs, rowKey), NO_VALUE);
}

/**
 * Deletes up to `batchSize` due entries and the rows they still describe, in one write transaction
 * so a concurrent put that renews a row cannot be undone. Resolves to the number of rows deleted.
 */
export function sweepExpiredRows(
  rows: BinaryDatabase,
  expiryIndex: BinaryDatabase,
  nowMs: number,
  batchSize: number,
): Promise<number> {
  return rows.transaction(() => {
    const range = { start: LOWEST_BINARY_KEY, end: encodeExpiry(nowMs + 1), limit: batchSize };
    const dueKeys = Array.from(expiryIndex.getKeys(range));
    let deletedRows = 0;
    for (const indexKey of dueKeys) {
      const rowKey = indexKey.subarray(EXPIRY_PREFIX_BYTES);
      const stored = rows.getBinary(rowKey);
      if (
        stored !== undefined &&
        expiresAtMsOf(stored) === indexKey.readUIntBE(0, EXPIRY_PREFIX_BYTES)
      ) {
        void rows.remove(rowKey);
        deletedRows += 1;
      }
      void expiryIndex.remove(indexKey);
    }
    return deletedRows;
  });
}
