import { open, type RootDatabase, type RootDatabaseOptionsWithPath } from 'lmdb';
import { warnOnceIfLmdbAddonIsDebugBuild } from './lmdb-addon';
import { indexExpiry, sweepExpiredRows, type BinaryDatabase } from './lmdb-expiry-index';
import { LOWEST_BINARY_KEY, POOLED_BINARY_ENCODING } from './lmdb-pooled-binary';
import { LmdbWriteCompletions } from './lmdb-write-completions';
import { replayLeftoverJournal } from './write-behind/journal-replay';
import { residentJournalErrorOf, type ResidentJournalError } from './write-behind/resident-rows';
import type { StoredWrite } from './write-behind/journal-record';
import {
  ENVELOPE_HEADER_BYTES,
  EXPIRY_PREFIX_BYTES,
  expiresAtMsFor,
  expiresAtMsOf,
  isLiveAt,
  livePayloadOf,
  wrapValue,
} from './lmdb-value-envelope';
import {
  isExpectedValue,
  type CompareAndSwapOutcome,
  type InPlaceDecoder,
  type KeyRange,
  type KeyRangeScan,
  type KeyValueEntry,
  type KeyValueWrite,
  type OrderedKeyValueBackend,
} from './ordered-key-value-backend';

/** lmdb-js refuses keys over 1978 bytes (4 KiB pages); the expiry index prepends its 6 bytes. */
const LMDB_MAX_KEY_BYTES = 1978;
export const LMDB_MAX_ROW_KEY_BYTES = LMDB_MAX_KEY_BYTES - EXPIRY_PREFIX_BYTES;

/**
 * When a write's promise resolves:
 * - `overlapping` (default): once the transaction is committed (visible, in the file), before its
 *   fsync (lmdb-js `overlappingSync`). A committed write survives a killed process; after an
 *   operating-system crash or power loss the environment opens at the last *flushed* transaction —
 *   intact, possibly without the last moments' writes. The fsync still runs on lmdb-js's one writer
 *   thread before it takes the next transaction (for any but the smallest transactions), so this
 *   mode shortens each write's wait, not the writer's time per commit (bench:storage measures both
 *   parts).
 * - `full`: only after the commit was fsynced inside the writer — also survives power loss, at a
 *   much higher cost per commit (one fsync on the writer's critical path).
 */
export type LmdbSyncMode = 'overlapping' | 'full';

/** 64 GiB of address space: virtual only (the file grows as needed), so the map is never resized
 * under load — growing the map while transactions run is where lmdb-js can stall. */
export const DEFAULT_LMDB_MAP_SIZE_BYTES = 64 * 1024 ** 3;

export interface LmdbBackendOptions {
  /** See LmdbSyncMode; default `overlapping`. */
  syncMode?: LmdbSyncMode;
  /** Address space reserved for the map; default DEFAULT_LMDB_MAP_SIZE_BYTES. */
  mapSizeBytes?: number;
  /** How often expired rows are swept from disk; default 1000 ms. Reads hide them regardless. */
  sweepIntervalMs?: number;
  /** Most expiry-index entries one sweep handles, bounding the write transaction; default 1000. */
  sweepBatchSize?: number;
  /** Where a failed background sweep is reported; default process.emitWarning. */
  onSweepError?: (error: unknown) => void;
  /** Keep LMDB's own write timings (writeMetrics()); for benchmarks — it reads the clock on every
   * transaction. Default off. */
  trackMetrics?: boolean;
  /**
   * Every write queued in one event turn commits in the same transaction (lmdb-js
   * `eventTurnBatching`): what makes a putMany all-or-nothing. Default true. False: the writer
   * thread takes whatever is queued whenever it is free, so writes spread over many turns commit in
   * a few large transactions — a few commits and syncs instead of up to one per turn — and a crash
   * may keep any prefix of them. Only for a store whose writes are all kept elsewhere until it is
   * synced: the write-behind checkpoints, whose journal holds every record until then.
   */
  commitsWholeTurns?: boolean;
  /**
   * The write-behind journal left in the store is this caller's: it claimed it before opening
   * (WriteBehindLmdbBackend), so the replay need not refuse it as owned by a running process.
   */
  isJournalClaimedByCaller?: boolean;
  /**
   * The caller replays the journal itself, after the open: a journal with resident rows is kept
   * across restarts and replayed with their owner (resident-journal-replay.ts). Claimed journals
   * only.
   */
  isJournalReplayedByCaller?: boolean;
}

/** LMDB's cumulative write figures since the environment opened (trackMetrics only). */
export interface LmdbWriteMetrics {
  transactionCount: number;
  pagesWritten: number;
  /** Inside write transactions: the B-tree work and writing the dirty pages to the file. */
  secondsInTransactions: number;
  /** Making committed transactions durable (fsync and the flushed meta page). */
  secondsSyncing: number;
}

export function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length === 0 || key.length > LMDB_MAX_ROW_KEY_BYTES) {
    throw new RangeError(
      `LMDB keys must be 1 to ${LMDB_MAX_ROW_KEY_BYTES} bytes, got ${Buffer.isBuffer(key) ? key.length : typeof key}`,
    );
  }
}

export function assertWrite(write: KeyValueWrite): void {
  assertKey(write.key);
  if (!Buffer.isBuffer(write.value)) {
    throw new TypeError('LMDB values must be Buffers');
  }
  const { ttlSeconds } = write;
  if (ttlSeconds !== undefined && !(Number.isFinite(ttlSeconds) && ttlSeconds >= 0)) {
    throw new RangeError(`ttlSeconds must be a non-negative number, got ${ttlSeconds}`);
  }
}

export function assertRange(range: KeyRange): void {
  if (!Buffer.isBuffer(range.start) || !Buffer.isBuffer(range.end)) {
    throw new TypeError('LMDB range bounds must be Buffers');
  }
}

export function assertScanLimit(limit: number): void {
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new RangeError(`scan limit must be a positive whole number, got ${limit}`);
  }
}

/** lmdb-js cursor bounds of a range: an empty start is "from the first key" (read as copies). */
function cursorRange(range: KeyRange): { start: Buffer; end: Buffer } {
  return { start: range.start.length > 0 ? range.start : LOWEST_BINARY_KEY, end: range.end };
}

/**
 * The embedded backend: one LMDB environment per service directory, holding two databases — `rows`
 * (key → enveloped value, see lmdb-value-envelope.ts) and `expiry_index` (see lmdb-expiry-index.ts).
 *
 * Durability: a resolved write is committed, so it survives kill -9 in every sync mode; with
 * `syncMode: 'full'` it also survives power loss (see LmdbSyncMode). Throughput comes from lmdb-js
 * batching every write queued in one event turn into one transaction.
 *
 * Atomicity: LMDB has a single writer. Compare-and-swap and the expiry sweep run as lmdb-js
 * transaction callbacks, which execute inside that writer's transaction, so their read and write
 * cannot interleave with any other write to the environment (from this process or another).
 */
export class LmdbBackend implements OrderedKeyValueBackend {
  readonly backendName = 'lmdb' as const;

  readonly #environment: RootDatabase;
  readonly #rows: BinaryDatabase;
  readonly #expiryIndex: BinaryDatabase;
  readonly #sweepBatchSize: number;
  readonly #sweepTimer: NodeJS.Timeout;
  #sweepInFlight: Promise<unknown> | undefined;
  #isClosed = false;
  /**
   * Why writes are refused, when they are: the store's journal carries resident rows and is
   * replayed again at their owner's next open, which would put its older row versions back over
   * anything written here meanwhile (journal-replay.ts). Such an opener reads the store.
   */
  #writesRefusedBy: ResidentJournalError | undefined;

  private constructor(directory: string, options: LmdbBackendOptions) {
    // trackMetrics is an lmdb-js option its type declarations leave out.
    const environmentOptions: RootDatabaseOptionsWithPath & { trackMetrics: boolean } = {
      path: directory,
      overlappingSync: (options.syncMode ?? 'overlapping') === 'overlapping',
      mapSize: options.mapSizeBytes ?? DEFAULT_LMDB_MAP_SIZE_BYTES,
      maxDbs: 4,
      trackMetrics: options.trackMetrics ?? false,
      eventTurnBatching: options.commitsWholeTurns ?? true,
    };
    this.#environment = open(environmentOptions);
    this.#rows = this.#environment.openDB<Buffer, Buffer>({
      name: 'rows',
      ...POOLED_BINARY_ENCODING,
    });
    this.#expiryIndex = this.#environment.openDB<Buffer, Buffer>({
      name: 'expiry_index',
      ...POOLED_BINARY_ENCODING,
    });
    this.#sweepBatchSize = options.sweepBatchSize ?? 1000;
    const onSweepError =
      options.onSweepError ??
      ((error: unknown) => process.emitWarning(`LMDB expiry sweep failed: ${String(error)}`));
    this.#sweepTimer = setInterval(() => {
      if (this.#sweepInFlight === undefined) {
        this.#sweepInFlight = this.sweepExpired()
          .catch(onSweepError)
          .finally(() => (this.#sweepInFlight = undefined));
      }
    }, options.sweepIntervalMs ?? 1000);
    // Sweeping is housekeeping; it must never keep a process (or a test run) alive.
    this.#sweepTimer.unref();
  }

  /**
   * Opens (creating if needed) the environment in `directory`, e.g. `./.data/<service>`. Writes a
   * write-behind journal left there (a process that wrote behind and stopped before its last
   * checkpoint, or was killed) into the rows first, so every opener reads the same store.
   */
  static async open(directory: string, options: LmdbBackendOptions = {}): Promise<LmdbBackend> {
    warnOnceIfLmdbAddonIsDebugBuild();
    const backend = new LmdbBackend(directory, options);
    try {
      if (options.isJournalReplayedByCaller !== true || options.isJournalClaimedByCaller !== true) {
        await replayLeftoverJournal(directory, backend, {
          isOwnedByCaller: options.isJournalClaimedByCaller,
        });
        backend.#writesRefusedBy = residentJournalErrorOf(directory);
      }
    } catch (error) {
      await backend.close();
      throw error;
    }
    return backend;
  }

  /** Resolves once every write committed so far is also synced (durable past a power loss). */
  async flushed(): Promise<void> {
    this.#assertOpen();
    await this.#rows.flushed;
  }

  /**
   * The id of the newest committed write transaction. Ids count up by one per transaction, so
   * the difference between two readings is the number committed in between (checkpointer.ts).
   */
  lastTransactionId(): number {
    this.#assertOpen();
    return (this.#environment.getStats() as { lastTxnId: number }).lastTxnId;
  }

  /** Undefined unless opened with trackMetrics. */
  writeMetrics(): LmdbWriteMetrics | undefined {
    this.#assertOpen();
    const stats = this.#environment.getStats() as Partial<Record<string, number>>;
    if (stats.txns === undefined) return undefined;
    return {
      transactionCount: stats.txns,
      pagesWritten: stats.pagesWritten ?? 0,
      secondsInTransactions: stats.timeDuringTxns ?? 0,
      secondsSyncing: stats.timeSync ?? 0,
    };
  }

  async get(key: Buffer): Promise<Buffer | undefined> {
    this.#assertOpen();
    assertKey(key);
    return livePayloadOf(this.#rows.getBinary(key), Date.now());
  }

  async getMany(keys: Buffer[]): Promise<Array<Buffer | undefined>> {
    this.#assertOpen();
    keys.forEach(assertKey);
    const nowMs = Date.now();
    return keys.map((key) => livePayloadOf(this.#rows.getBinary(key), nowMs));
  }

  getDecodedMany<T>(keys: Buffer[], decode: InPlaceDecoder<T>): Array<T | undefined> {
    this.#assertOpen();
    keys.forEach(assertKey);
    const nowMs = Date.now();
    const values = new Array<T | undefined>(keys.length);
    for (let index = 0; index < keys.length; index += 1) {
      // The read buffer is reused by the next read: decoded before that, never kept.
      const stored = this.#rows.getBinaryFast(keys[index]);
      if (stored !== undefined && isLiveAt(stored, nowMs)) {
        values[index] = decode(stored, ENVELOPE_HEADER_BYTES);
      }
    }
    return values;
  }

  async put(write: KeyValueWrite): Promise<void> {
    await this.putMany([write]);
  }

  /**
   * Writes rows in their stored form (envelopes, expiry included) and deletes, in one transaction:
   * how a write-behind checkpoint or a journal replay lands. Resolves once committed.
   */
  async applyStoredWrites(writes: readonly StoredWrite[]): Promise<void> {
    this.#assertWritable();
    const completions = new LmdbWriteCompletions();
    for (const { key, stored } of writes) {
      if (stored === undefined) {
        completions.add(this.#rows.remove(key));
      } else {
        completions.add(this.#rows.put(key, stored));
        completions.add(indexExpiry(this.#expiryIndex, expiresAtMsOf(stored), key));
      }
    }
    await completions.settled();
  }

  async putMany(writes: KeyValueWrite[]): Promise<void> {
    this.#assertWritable();
    // Validate everything before queueing anything, so a bad row cannot leave half a batch behind.
    writes.forEach(assertWrite);
    const nowMs = Date.now();
    const completions = new LmdbWriteCompletions();
    // Queued in one event turn, so lmdb-js commits row and index entries in one transaction.
    for (const write of writes) {
      const expiresAtMs = expiresAtMsFor(write.ttlSeconds, nowMs);
      completions.add(this.#rows.put(write.key, wrapValue(write.value, expiresAtMs)));
      completions.add(indexExpiry(this.#expiryIndex, expiresAtMs, write.key));
    }
    await completions.settled();
  }

  async delete(key: Buffer): Promise<void> {
    await this.deleteMany([key]);
  }

  async deleteMany(keys: Buffer[]): Promise<void> {
    this.#assertWritable();
    keys.forEach(assertKey);
    // A stale expiry-index entry may remain; the sweep discards it (see lmdb-expiry-index.ts).
    const completions = new LmdbWriteCompletions();
    for (const key of keys) completions.add(this.#rows.remove(key));
    await completions.settled();
  }

  async deleteRange(range: KeyRange): Promise<void> {
    this.#assertWritable();
    assertRange(range);
    if (Buffer.compare(range.start, range.end) >= 0) {
      return;
    }
    // One write transaction: no other write can land between listing the keys and removing them.
    // Expiry-index entries of removed rows go stale, which the sweep tolerates.
    await this.#rows.transaction(() => {
      const keys = Array.from(this.#rows.getKeys(cursorRange(range)));
      for (const key of keys) {
        void this.#rows.remove(key);
      }
    });
  }

  async scan(range: KeyRangeScan): Promise<KeyValueEntry[]> {
    this.#assertOpen();
    assertScanLimit(range.limit);
    const entries: KeyValueEntry[] = [];
    for (const entry of this.liveRows(range, Date.now())) {
      entries.push(entry);
      if (entries.length >= range.limit) break;
    }
    return entries;
  }

  /**
   * The live rows of [start, end) in ascending key order, read lazily (synchronously; consume them
   * within one turn). No `limit` on the cursor: expired rows are skipped, so the caller's count of
   * live rows decides when to stop — through `return()` (a for-of's break does it): an unfinished
   * iterator keeps its cursor and read transaction (MDB_READERS_FULL in the end).
   */
  *liveRows(range: KeyRange, nowMs: number): Generator<KeyValueEntry> {
    this.#assertOpen();
    assertRange(range);
    if (Buffer.compare(range.start, range.end) >= 0) return;
    for (const { key, value } of this.#rows.getRange(cursorRange(range))) {
      const payload = livePayloadOf(value, nowMs);
      // Keys and values are read as copies (lmdb-pooled-binary.ts), so no defensive copy.
      if (payload !== undefined) yield { key, value: payload };
    }
  }

  forEachDecoded<T>(range: KeyRange, decode: InPlaceDecoder<T>, visit: (value: T) => void): void {
    this.#assertOpen();
    assertRange(range);
    if (Buffer.compare(range.start, range.end) >= 0) return;
    const nowMs = Date.now();
    // A throw leaves the for-of, which closes the cursor and its read transaction.
    for (const { value } of this.#rows.getRange(cursorRange(range))) {
      if (isLiveAt(value, nowMs)) visit(decode(value, ENVELOPE_HEADER_BYTES));
    }
  }

  /** Every key stored in [start, end), expired or not. */
  rowKeys(range: KeyRange): Buffer[] {
    this.#assertOpen();
    assertRange(range);
    if (Buffer.compare(range.start, range.end) >= 0) return [];
    return Array.from(this.#rows.getKeys(cursorRange(range)));
  }

  async compareAndSwap(
    key: Buffer,
    expected: Buffer | undefined,
    next: Buffer,
    ttlSeconds?: number,
  ): Promise<CompareAndSwapOutcome> {
    this.#assertWritable();
    assertWrite({ key, value: next, ttlSeconds });
    return this.#rows.transaction(() => {
      const nowMs = Date.now();
      const previous = livePayloadOf(this.#rows.getBinary(key), nowMs);
      const isSwapped = isExpectedValue(previous, expected);
      if (isSwapped) {
        const expiresAtMs = expiresAtMsFor(ttlSeconds, nowMs);
        void this.#rows.put(key, wrapValue(next, expiresAtMs));
        void indexExpiry(this.#expiryIndex, expiresAtMs, key);
      }
      return { isSwapped, previous };
    });
  }

  /**
   * Deletes up to one batch of expired rows now; the background timer calls this every interval.
   * Resolves to the number of rows deleted.
   */
  async sweepExpired(): Promise<number> {
    this.#assertOpen();
    // The journal's replay at the owner's next open puts back what a sweep here would delete.
    if (this.#writesRefusedBy !== undefined) return 0;
    return sweepExpiredRows(this.#rows, this.#expiryIndex, Date.now(), this.#sweepBatchSize);
  }

  async close(): Promise<void> {
    if (this.#isClosed) {
      return;
    }
    this.#isClosed = true;
    clearInterval(this.#sweepTimer);
    await this.#sweepInFlight;
    await this.#rows.committed;
    await this.#environment.close();
  }

  #assertWritable(): void {
    this.#assertOpen();
    if (this.#writesRefusedBy !== undefined) throw this.#writesRefusedBy;
  }

  #assertOpen(): void {
    if (this.#isClosed) {
      throw new Error('LmdbBackend is closed');
    }
  }
}
