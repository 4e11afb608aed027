import type { DocumentCodec } from './document-codec';
import type {
  CompareAndSwapResult,
  KeyPage,
  KeyspaceRow,
  KeyspaceWrite,
  ReplicaChange,
  ScanOptions,
  ScanPage,
  UpdateOptions,
  WriteOptions,
} from './keyspace-types';
import type { OrderedKeyValueBackend } from './ordered-key-value-backend';
import { PrimaryKey, type PrimaryKeyInput } from './primary-key';
import type { TableLocation } from './storage-key';
import { assertScanLimit, TableStorage, type PreparedWrites } from './table-storage';

/**
 * The reads of a table whose rows their owner holds in memory — resident rows of a write-behind
 * store (write-behind/resident-rows.ts), or an index the owner derives from them. Answers as the
 * backend would: documents by primary key, pages in the table's key order.
 */
export interface ResidentTableReads<T> {
  /** The document under each key; undefined where there is none. */
  getMany(primaryKeys: readonly PrimaryKey[]): Array<T | undefined>;
  /** One page after `after` (exclusive), at most `limit` rows, and whether more follow. */
  scan(options: ResidentScan): { rows: Array<KeyspaceRow<T>>; hasMore: boolean };
  /** scan's keys alone, where the owner can give them without building documents. */
  scanKeys?(options: ResidentScan): { keys: PrimaryKey[]; hasMore: boolean };
}

export interface ResidentScan {
  /** The first key part every row's key must have, when the scan names one. */
  group: string | undefined;
  after: PrimaryKey | undefined;
  limit: number;
}

/**
 * How a resident table's writes go: `through` the backend as any table's (the store journals them
 * and hands them to the rows' owner), or `derived` — the table is an index the owner keeps from
 * other rows, so its writes are dropped: the owner has already placed them.
 */
export type ResidentWrites = 'through' | 'derived';

/** A write a resident table does not take (a read-modify-write, a replica change). */
export class ResidentTableError extends Error {
  constructor(tableName: string, operation: string) {
    super(`${operation} is not offered by ${tableName}: its rows are resident (held in memory)`);
    this.name = 'ResidentTableError';
  }
}

/**
 * A table of the keyspace whose reads its resident owner answers, with the same API as any other:
 * the code above it — the scheduler's frontier — reads and writes it unchanged whichever store it
 * runs on (docs/resident-frontier.md, step 4).
 */
export class ResidentTableStorage<T> extends TableStorage<T> {
  constructor(
    backend: OrderedKeyValueBackend,
    private readonly residentLocation: TableLocation,
    codec: DocumentCodec<T>,
    private readonly reads: ResidentTableReads<T>,
    private readonly writes: ResidentWrites,
  ) {
    super(backend, residentLocation, codec);
  }

  override get(input: PrimaryKeyInput): Promise<T | undefined> {
    try {
      return Promise.resolve(this.reads.getMany([primaryKeyOf(input)])[0]);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  override async getMany(inputs: PrimaryKeyInput[]): Promise<Array<T | undefined>> {
    return inputs.length === 0 ? [] : this.reads.getMany(inputs.map(primaryKeyOf));
  }

  override async hasMany(inputs: PrimaryKeyInput[]): Promise<boolean[]> {
    return (await this.getMany(inputs)).map((value) => value !== undefined);
  }

  override async scan(options: ScanOptions): Promise<ScanPage<T>> {
    const { rows, hasMore } = this.reads.scan(this.#residentScanOf(options));
    return {
      rows,
      nextAfter: hasMore && rows.length > 0 ? rows[rows.length - 1].primaryKey : null,
    };
  }

  /** Its owner answers the reads: page by page through scan, never from the backend. */
  override async forEachValue(
    visit: (value: T) => void,
    options: Pick<ScanOptions, 'prefix'> = {},
  ): Promise<void> {
    await this.forEachValueByPages(visit, options);
  }

  override async scanKeys(options: ScanOptions): Promise<KeyPage> {
    const scan = this.#residentScanOf(options);
    const { keys, hasMore } = this.reads.scanKeys?.(scan) ?? keysOf(this.reads.scan(scan));
    return { keys, nextAfter: hasMore && keys.length > 0 ? keys[keys.length - 1] : null };
  }

  #residentScanOf(options: ScanOptions): ResidentScan {
    assertScanLimit(options.limit);
    return {
      group: groupOf(options, this.residentLocation),
      after: options.after === undefined ? undefined : primaryKeyOf(options.after),
      limit: options.limit,
    };
  }

  override async put(input: PrimaryKeyInput, value: T, options: WriteOptions = {}): Promise<void> {
    if (this.writes === 'through') await super.put(input, value, options);
  }

  override async putMany(rows: Array<KeyspaceWrite<T>>): Promise<void> {
    if (this.writes === 'through') await super.putMany(rows);
  }

  /** Each write carries its document: the rows' owner takes it, not the bytes decoded back. */
  protected override sourceOf(row: KeyspaceWrite<T>): unknown {
    return row.value;
  }

  override prepare(puts: Array<KeyspaceWrite<T>>, deletes: PrimaryKeyInput[]): PreparedWrites {
    return this.writes === 'through' ? super.prepare(puts, deletes) : { issue: () => [] };
  }

  override async delete(input: PrimaryKeyInput): Promise<void> {
    if (this.writes === 'through') await super.delete(input);
  }

  override async deleteMany(inputs: PrimaryKeyInput[]): Promise<void> {
    if (this.writes === 'through') await super.deleteMany(inputs);
  }

  override compareAndSwap(
    _input: PrimaryKeyInput,
    _expected: T | undefined,
    _next: T,
  ): Promise<CompareAndSwapResult<T>> {
    return Promise.reject(
      new ResidentTableError(this.residentLocation.tableName, 'compareAndSwap'),
    );
  }

  override update(
    _input: PrimaryKeyInput,
    _mutate: (current: T | undefined) => T | undefined,
    _options?: UpdateOptions,
  ): Promise<T | undefined> {
    return Promise.reject(new ResidentTableError(this.residentLocation.tableName, 'update'));
  }

  override applyReplica(_changes: Array<ReplicaChange<T>>): Promise<void> {
    return Promise.reject(new ResidentTableError(this.residentLocation.tableName, 'applyReplica'));
  }
}

function keysOf<T>({ rows, hasMore }: { rows: Array<KeyspaceRow<T>>; hasMore: boolean }): {
  keys: PrimaryKey[];
  hasMore: boolean;
} {
  return { keys: rows.map((row) => row.primaryKey), hasMore };
}

function primaryKeyOf(input: PrimaryKeyInput): PrimaryKey {
  return input instanceof PrimaryKey ? input : PrimaryKey.of(input);
}

/**
 * The one leading key part a scan's prefix names, or undefined for a scan of the whole table.
 * Resident tables are read whole or a group at a time (a domain's queue, a shard bucket).
 */
function groupOf({ prefix }: ScanOptions, location: TableLocation): string | undefined {
  if (prefix === undefined || prefix === '') return undefined;
  if (typeof prefix !== 'string') {
    const encoded = prefix.encoded;
    const parts = encoded.endsWith('/')
      ? PrimaryKey.fromEncoded(encoded.slice(0, -1)).parts
      : undefined;
    if (parts?.length === 1) return parts[0];
  }
  throw new ResidentTableError(location.tableName, 'a scan by a partial or multi-part prefix');
}
