/**
 * Binary keys and values for lmdb-js, read into Buffers from Node's allocation pool.
 *
 * lmdb-js's own `binary` encodings hand out each key and value read by a cursor as a
 * `Uint8Array.prototype.slice` copy: a typed array with an ArrayBuffer of its own. V8 keeps one of
 * up to 64 bytes on its heap, but a longer one (every frontier key: `scheduler:url_due_index:` and
 * four parts) gets a separately allocated backing store, and so does a short one the moment a
 * view is taken of it (`payloadOf`'s `subarray`): ~0.7 µs each on this machine against ~0.1 µs for
 * a pooled Buffer (`Buffer.allocUnsafe` under 4 KiB is a view of a shared 8 KiB slab), plus a
 * backing store for the garbage collector to track and free. A due-index scan of three rows took
 * ~11 µs that way and ~5 µs with these readers (a scratch loop over 1M keys of 100,000 domains).
 *
 * Both readers copy out of lmdb-js's shared read buffer before the next read reuses it, so what
 * they return is the caller's to keep. A pooled Buffer kept keeps its 8 KiB slab alive: rows read
 * are decoded into documents, strings and primary keys and dropped, so none pins one for long. Keys are written as given, values stored as given: the
 * bytes on disk are the same as with the `binary` encodings, so a store opened either way reads
 * the same.
 */

function pooledCopy(source: Buffer, start: number, end: number): Buffer {
  const copy = Buffer.allocUnsafe(end - start);
  copy.set(source.subarray(start, end));
  return copy;
}

/** lmdb-js's key encoder interface (`keyEncoder`): keys are Buffers, compared as raw bytes. */
const pooledBinaryKeys = {
  writeKey(key: Buffer, target: Buffer, start: number): number {
    target.set(key, start);
    return start + key.length;
  },
  readKey: pooledCopy,
};

/**
 * lmdb-js's value encoder interface (`encoder`). `decode` receives the shared read buffer uncopied
 * (`needsStableBuffer` is not set) and, from a cursor, the value's size; `get` passes its options
 * there instead, and sets the shared buffer's `length` to the size.
 */
const pooledBinaryValues = {
  encode(value: Buffer): Buffer {
    return value;
  },
  decode(bytes: Buffer, size: unknown): Buffer {
    return pooledCopy(bytes, 0, typeof size === 'number' ? size : bytes.length);
  },
};

/**
 * The lowest key LMDB can hold (keys are never empty). Give it as the start of a range that has
 * none: lmdb-js begins such a range at its own default first key — [5] for a database with a key
 * encoder like this one — and would pass over every key below it.
 */
export const LOWEST_BINARY_KEY = Buffer.from([0]);

/** Database options for `openDB`, in place of `{ keyEncoding: 'binary', encoding: 'binary' }`. */
export const POOLED_BINARY_ENCODING = {
  keyEncoder: pooledBinaryKeys,
  encoder: pooledBinaryValues,
} as const;
