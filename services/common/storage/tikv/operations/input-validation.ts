import { KeyRange, KeyValueWrite } from '../../ordered-key-value-backend';
import { toWireTtl } from './ttl-seconds';

/**
 * Argument checks done before anything is sent, with the same error types as the LMDB backend, so
 * callers see one behaviour whatever the backend. (TiKV itself limits keys to 8 KiB and reports
 * that as a storage error.)
 */
export function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length === 0) {
    throw new RangeError(`TiKV keys must be non-empty Buffers, got ${describe(key)}`);
  }
}

export function assertWrite(write: KeyValueWrite): void {
  assertKey(write.key);
  if (!Buffer.isBuffer(write.value)) throw new TypeError('TiKV values must be Buffers');
  toWireTtl(write.ttlSeconds);
}

export function assertRange(range: KeyRange): void {
  if (!Buffer.isBuffer(range.start) || !Buffer.isBuffer(range.end)) {
    throw new TypeError('TiKV range bounds must be Buffers');
  }
}

export function assertScanLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`scan limit must be a positive whole number, got ${limit}`);
  }
}

function describe(value: unknown): string {
  return Buffer.isBuffer(value) ? `${value.length} bytes` : typeof value;
}
