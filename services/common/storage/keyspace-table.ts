import type {
  CompareAndSwapResult,
  KeyPage,
  KeyspaceWrite,
  ReplicaChange,
  ScanOptions,
  ScanPage,
  UpdateOptions,
  WriteOptions,
} from './keyspace-types';
import type { PrimaryKeyInput } from './primary-key';
import type { PreparedWrites, TableStorage } from './table-storage';

/*
 * The three views a service gets of a table. They differ only in which operations exist, so that
 * "this table is read-only here" is a compile-time fact (and, since the methods are simply absent,
 * a runtime one too). Each view keeps its storage in a true private field: holding a view gives no
 * path to the backend or to other tables.
 */

/** Reads of one table; what `table()` returns for a `…_replica` table. */
export class ReadonlyKeyspaceTable<T> {
  readonly #storage: TableStorage<T>;

  constructor(storage: TableStorage<T>) {
    this.#storage = storage;
  }

  /** The document, or undefined when absent or expired. */
  get(primaryKey: PrimaryKeyInput): Promise<T | undefined> {
    return this.#storage.get(primaryKey);
  }

  /** Same order as `primaryKeys`; undefined where absent or expired. */
  getMany(primaryKeys: PrimaryKeyInput[]): Promise<Array<T | undefined>> {
    return this.#storage.getMany(primaryKeys);
  }

  /** Same order as `primaryKeys`: whether each row exists (live). Cheaper than reading it. */
  hasMany(primaryKeys: PrimaryKeyInput[]): Promise<boolean[]> {
    return this.#storage.hasMany(primaryKeys);
  }

  /** One page of live rows in primary-key order. */
  scan(options: ScanOptions): Promise<ScanPage<T>> {
    return this.#storage.scan(options);
  }

  /**
   * Every live row's document in primary-key order (under `prefix` when given): a whole table
   * read at once, synchronously where the backend can (LMDB), for a start-up's rebuild.
   */
  forEachValue(
    visit: (value: T) => void,
    options: Pick<ScanOptions, 'prefix'> = {},
  ): Promise<void> {
    return this.#storage.forEachValue(visit, options);
  }

  /**
   * Every live row's document in primary-key order, page by page, waiting for what `visit`
   * returns before the next row (a visitor that writes as it reads).
   */
  forEachValueByPages(
    visit: (value: T) => void | Promise<void>,
    options: Pick<ScanOptions, 'prefix'> = {},
  ): Promise<void> {
    return this.#storage.forEachValueByPages(visit, options);
  }

  /** One page of the primary keys of live rows, values not decoded (index tables). */
  scanKeys(options: ScanOptions): Promise<KeyPage> {
    return this.#storage.scanKeys(options);
  }
}

/** Reads and writes of one table owned by this service. */
export class KeyspaceTable<T> extends ReadonlyKeyspaceTable<T> {
  readonly #storage: TableStorage<T>;

  constructor(storage: TableStorage<T>) {
    super(storage);
    this.#storage = storage;
  }

  /** Durable when the promise resolves. */
  put(primaryKey: PrimaryKeyInput, value: T, options?: WriteOptions): Promise<void> {
    return this.#storage.put(primaryKey, value, options);
  }

  /** Not all-or-nothing across rows (TiKV splits batches per region). */
  putMany(rows: Array<KeyspaceWrite<T>>): Promise<void> {
    return this.#storage.putMany(rows);
  }

  /** Checks and encodes writes now, issues them later: see TableStorage.prepare. */
  prepareWrites(puts: Array<KeyspaceWrite<T>>, deletes: PrimaryKeyInput[]): PreparedWrites {
    return this.#storage.prepare(puts, deletes);
  }

  /** Deleting an absent row is not an error. */
  delete(primaryKey: PrimaryKeyInput): Promise<void> {
    return this.#storage.delete(primaryKey);
  }

  deleteMany(primaryKeys: PrimaryKeyInput[]): Promise<void> {
    return this.#storage.deleteMany(primaryKeys);
  }

  /**
   * Writes `next` only when the live row equals `expected` (undefined: only when absent or
   * expired). Documents are compared in canonical form, so field order does not matter.
   */
  compareAndSwap(
    primaryKey: PrimaryKeyInput,
    expected: T | undefined,
    next: T,
    options?: WriteOptions,
  ): Promise<CompareAndSwapResult<T>> {
    return this.#storage.compareAndSwap(primaryKey, expected, next, options);
  }

  /**
   * Read-modify-write with bounded compare-and-swap retries. `mutate` may run several times and
   * must be synchronous and side-effect free; returning undefined leaves the row unchanged.
   * Resolves to the value now stored (or the unchanged current value); throws UpdateConflictError
   * after `maxAttempts` lost races. Like every write, a swap without `ttlSeconds` makes the row
   * permanent, so pass the TTL again to keep a row expiring.
   */
  update(
    primaryKey: PrimaryKeyInput,
    mutate: (current: T | undefined) => T | undefined,
    options?: UpdateOptions,
  ): Promise<T | undefined> {
    return this.#storage.update(primaryKey, mutate, options);
  }
}

/** A `…_replica` table as the replication code sees it: reads plus the one writing entry point. */
export class ReplicaKeyspaceTable<T> extends ReadonlyKeyspaceTable<T> {
  readonly #storage: TableStorage<T>;

  constructor(storage: TableStorage<T>) {
    super(storage);
    this.#storage = storage;
  }

  /** Mirrors changes made at the owning service; a null value deletes the row. */
  applyReplica(changes: Array<ReplicaChange<T>>): Promise<void> {
    return this.#storage.applyReplica(changes);
  }
}
