/**
 * The one contract every storage backend fulfils: an ordered key-value space of byte strings.
 *
 * Keys are compared as unsigned bytes (memcmp order) on every backend, so a scan returns the same
 * rows in the same order on LMDB and on TiKV. Values are opaque bytes here; the keyspace layer above
 * (service-keyspace.ts) turns them into JSON documents and owns key construction, so nothing below
 * this interface knows about services, tables or the naming convention.
 */

/** One stored row. */
export interface KeyValueEntry {
  key: Buffer;
  value: Buffer;
}

/** A row to write, with an optional time-to-live. */
export interface KeyValueWrite {
  key: Buffer;
  value: Buffer;
  /** Seconds until the row disappears; absent or 0 means "never expires". */
  ttlSeconds?: number;
  /**
   * The document `value` encodes, where the writer has it at hand: a write-behind store hands it
   * with the row to the owner of resident rows (write-behind/resident-rows.ts), which then takes it
   * instead of decoding the bytes back. Never stored; other backends ignore it.
   */
  source?: unknown;
}

/** Half-open key range [start, end); empty when start ≥ end (an empty `end` is not "unbounded"). */
export interface KeyRange {
  /** Inclusive lower bound. */
  start: Buffer;
  /** Exclusive upper bound. */
  end: Buffer;
}

/** A key range scanned in ascending byte order. */
export interface KeyRangeScan extends KeyRange {
  /** Maximum number of rows returned (≥ 1). */
  limit: number;
}

/** Outcome of a compare-and-swap. */
export interface CompareAndSwapOutcome {
  /** True when the stored value equalled `expected` (or was absent when `expected` was undefined). */
  isSwapped: boolean;
  /** The value found before the operation (undefined when absent or expired). */
  previous: Buffer | undefined;
}

/** Whether a compare-and-swap finds what it expects: byte-equal, or absent for `undefined`. */
export function isExpectedValue(
  previous: Buffer | undefined,
  expected: Buffer | undefined,
): boolean {
  return expected === undefined ? previous === undefined : previous?.equals(expected) === true;
}

export type BackendName = 'lmdb' | 'tikv';

/** Decodes a value that starts at `start` in `bytes` (see getDecodedMany). */
export type InPlaceDecoder<T> = (bytes: Buffer, start: number) => T;

export interface OrderedKeyValueBackend {
  readonly backendName: BackendName;

  /**
   * True when the backend also keeps the order of writes issued one after the other without
   * waiting: each takes effect only after every write issued before it, and a write issued after
   * one that failed never takes effect (neither now nor after a restart's recovery). A caller may
   * then issue its next writes before the earlier ones are durable. Absent: no such promise.
   */
  readonly keepsIssueOrder?: boolean;

  /** Returns the value, or undefined when the key is absent or its TTL has passed. */
  get(key: Buffer): Promise<Buffer | undefined>;

  /** Same order as `keys`; undefined where absent or expired. */
  getMany(keys: Buffer[]): Promise<Array<Buffer | undefined>>;

  /**
   * Optional fast path of an embedded backend: reads synchronously and hands `decode` the stored
   * bytes in place — `bytes` from `start` on is the value — without copying them. `decode` must
   * not keep `bytes` (the backend reuses the buffer). Undefined where absent or expired.
   */
  getDecodedMany?<T>(keys: Buffer[], decode: InPlaceDecoder<T>): Array<T | undefined>;

  put(write: KeyValueWrite): Promise<void>;

  /**
   * Writes every row. Durable when the promise resolves. Not a transaction across rows on every
   * backend (TiKV splits a batch per region), so callers must not rely on all-or-nothing.
   */
  putMany(writes: KeyValueWrite[]): Promise<void>;

  /** Deleting an absent key is not an error. */
  delete(key: Buffer): Promise<void>;

  deleteMany(keys: Buffer[]): Promise<void>;

  /**
   * Deletes every row in [start, end), expired or not, without reading them first; nothing when
   * start ≥ end. Durable when the promise resolves. Like putMany, not all-or-nothing on every
   * backend (TiKV deletes region by region; repeating the call finishes an interrupted one).
   *
   * For ranges nothing writes meanwhile (a dropped table, an expired partition): on TiKV it is
   * not serialized with other writers — RawDeleteRange has no atomic mode — so a compare-and-swap
   * racing with it on a key inside the range may survive it or be lost. LMDB runs it as one
   * transaction.
   */
  deleteRange(range: KeyRange): Promise<void>;

  /** Ascending scan of live (unexpired) rows in [start, end), at most `limit` rows. */
  scan(range: KeyRangeScan): Promise<KeyValueEntry[]>;

  /**
   * Optional fast path of an embedded backend for reading a whole range at once (a start-up's
   * read of a table): every live row of [start, end) in ascending key order, its value handed to
   * `decode` where it was read (`bytes` from `start` on; not to be kept, as in getDecodedMany) and
   * the result to `visit`, synchronously in one pass and one read transaction — without scan's
   * pages, entries and payload views. An error `decode` or `visit` throws ends the pass and goes
   * on to the caller. Absent where reads are not synchronous (TiKV): callers page with scan.
   */
  forEachDecoded?<T>(range: KeyRange, decode: InPlaceDecoder<T>, visit: (value: T) => void): void;

  /**
   * Atomically replaces the value when the current value equals `expected` byte for byte
   * (`expected` undefined = "only if absent"). Atomic against every other writer of the key,
   * including plain puts (on TiKV every write therefore runs in atomic mode).
   */
  compareAndSwap(
    key: Buffer,
    expected: Buffer | undefined,
    next: Buffer,
    ttlSeconds?: number,
  ): Promise<CompareAndSwapOutcome>;

  /** Flushes and releases resources; the backend must not be used afterwards. */
  close(): Promise<void>;
}
