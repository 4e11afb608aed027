/**
 * How LmdbBackend stores a value: LMDB has no TTL, so each stored value carries its own expiry.
 *
 *   byte 0      format, always 1 (room for a future layout, e.g. compression)
 *   bytes 1–6   expires_at in Unix milliseconds, unsigned big-endian; 0 = never expires
 *                (48 bits last until the year 10889)
 *   bytes 7–    the caller's value, untouched
 */

const FORMAT = 1;
export const ENVELOPE_HEADER_BYTES = 7;
const EXPIRY_BYTES = 6;

/** Unix ms at which a row written now with `ttlSeconds` expires; 0 for "never". */
export function expiresAtMsFor(ttlSeconds: number | undefined, nowMs: number): number {
  return ttlSeconds ? nowMs + ttlSeconds * 1000 : 0;
}

export function wrapValue(value: Buffer, expiresAtMs: number): Buffer {
  const stored = Buffer.allocUnsafe(ENVELOPE_HEADER_BYTES + value.length);
  stored[0] = FORMAT;
  stored.writeUIntBE(expiresAtMs, 1, EXPIRY_BYTES);
  value.copy(stored, ENVELOPE_HEADER_BYTES);
  return stored;
}

export function expiresAtMsOf(stored: Buffer): number {
  if (stored.length < ENVELOPE_HEADER_BYTES || stored[0] !== FORMAT) {
    throw new Error(`stored value has an unknown envelope (format byte ${stored[0]})`);
  }
  return stored.readUIntBE(1, EXPIRY_BYTES);
}

/** The caller's value, sharing memory with `stored`. */
export function payloadOf(stored: Buffer): Buffer {
  return stored.subarray(ENVELOPE_HEADER_BYTES);
}

/** Whether a stored row has not expired by `nowMs`. */
export function isLiveAt(stored: Buffer, nowMs: number): boolean {
  const expiresAtMs = expiresAtMsOf(stored);
  return expiresAtMs === 0 || expiresAtMs > nowMs;
}

/** The live payload, or undefined when the row has expired by `nowMs`. */
export function livePayloadOf(stored: Buffer | undefined, nowMs: number): Buffer | undefined {
  return stored !== undefined && isLiveAt(stored, nowMs) ? payloadOf(stored) : undefined;
}

/** Big-endian expiry as a 6-byte key prefix: byte order equals time order. */
export function encodeExpiry(expiresAtMs: number): Buffer {
  const encoded = Buffer.allocUnsafe(EXPIRY_BYTES);
  encoded.writeUIntBE(expiresAtMs, 0, EXPIRY_BYTES);
  return encoded;
}

export const EXPIRY_PREFIX_BYTES = EXPIRY_BYTES;
