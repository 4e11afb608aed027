import {
  CompareAndSwapOutcome,
  KeyRange,
  KeyRangeScan,
  KeyValueEntry,
  KeyValueWrite,
  OrderedKeyValueBackend,
} from '../ordered-key-value-backend';
import { batchDelete, batchGet, batchPut } from './operations/batch-operations';
import {
  assertKey,
  assertRange,
  assertScanLimit,
  assertWrite,
} from './operations/input-validation';
import { deleteKeyRange } from './operations/range-delete';
import { scanRange } from './operations/range-scan';
import { sendToKeyOwner } from './operations/region-dispatch';
import { throwOnStorageError } from './operations/storage-errors';
import { toWireTtl } from './operations/ttl-seconds';
import { TikvBackendOptions, resolveTikvBackendOptions } from './tikv-backend-options';
import { TikvConnection } from './tikv-connection';
import { TikvError } from './tikv-errors';

const EMPTY = Buffer.alloc(0);

/**
 * OrderedKeyValueBackend over TiKV's raw-KV API (API V1), speaking gRPC to PD and the TiKV stores
 * directly. Every write runs in TiKV's "atomic mode" (`for_cas = true`) so that compare-and-swap
 * stays linearizable against plain puts and deletes from any process (notes §5.2). The one
 * exception is deleteRange: TiKV has no atomic delete range.
 */
export class TikvBackend implements OrderedKeyValueBackend {
  readonly backendName = 'tikv' as const;
  private closed = false;

  private constructor(private readonly connection: TikvConnection) {}

  /** Discovers the PD leader and cluster id; regions and stores are then learned on demand. */
  static async connect(options: TikvBackendOptions): Promise<TikvBackend> {
    return new TikvBackend(await TikvConnection.connect(resolveTikvBackendOptions(options)));
  }

  /** The cluster id reported by PD (a 64-bit value, hence a decimal string). */
  get clusterId(): string {
    return this.connection.pd.clusterId;
  }

  async get(key: Buffer): Promise<Buffer | undefined> {
    assertKey(key);
    const response = await sendToKeyOwner(this.open(), key, 'RawGet', { key }, this.budget('get'));
    throwOnStorageError('get', response.error);
    return response.not_found ? undefined : response.value;
  }

  async getMany(keys: Buffer[]): Promise<Array<Buffer | undefined>> {
    keys.forEach(assertKey);
    return batchGet(this.open(), keys, this.budget('getMany'));
  }

  async put(write: KeyValueWrite): Promise<void> {
    assertWrite(write);
    const request = {
      key: write.key,
      value: write.value,
      ttl: toWireTtl(write.ttlSeconds),
      for_cas: true,
    };
    const response = await sendToKeyOwner(
      this.open(),
      write.key,
      'RawPut',
      request,
      this.budget('put'),
    );
    throwOnStorageError('put', response.error);
  }

  async putMany(writes: KeyValueWrite[]): Promise<void> {
    // Validate every row first so that a bad one cannot leave part of the batch written.
    writes.forEach(assertWrite);
    return batchPut(this.open(), writes, this.budget('putMany'));
  }

  async delete(key: Buffer): Promise<void> {
    assertKey(key);
    const request = { key, for_cas: true };
    const response = await sendToKeyOwner(
      this.open(),
      key,
      'RawDelete',
      request,
      this.budget('delete'),
    );
    throwOnStorageError('delete', response.error);
  }

  async deleteMany(keys: Buffer[]): Promise<void> {
    keys.forEach(assertKey);
    return batchDelete(this.open(), keys, this.budget('deleteMany'));
  }

  /** RawDeleteRange per region; not serialized with CAS (see OrderedKeyValueBackend). */
  async deleteRange(range: KeyRange): Promise<void> {
    assertRange(range);
    return deleteKeyRange(this.open(), range, this.budget('deleteRange'));
  }

  async scan(range: KeyRangeScan): Promise<KeyValueEntry[]> {
    assertScanLimit(range.limit);
    return scanRange(this.open(), range, this.budget('scan'));
  }

  /**
   * One RawCompareAndSwap. Region errors are retried (TiKV rejects those before executing), but a
   * transport failure after sending is reported as TikvAmbiguousResultError, not re-sent.
   */
  async compareAndSwap(
    key: Buffer,
    expected: Buffer | undefined,
    next: Buffer,
    ttlSeconds?: number,
  ): Promise<CompareAndSwapOutcome> {
    assertWrite({ key, value: next, ttlSeconds });
    const request = {
      key,
      value: next,
      previous_not_exist: expected === undefined,
      previous_value: expected ?? EMPTY,
      ttl: toWireTtl(ttlSeconds),
    };
    const budget = this.budget('compareAndSwap');
    const response = await sendToKeyOwner(
      this.open(),
      key,
      'RawCompareAndSwap',
      request,
      budget,
      false,
    );
    throwOnStorageError('compareAndSwap', response.error);
    return {
      isSwapped: response.succeed,
      previous: response.previous_not_exist ? undefined : response.previous_value,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.connection.close();
  }

  private open(): TikvConnection {
    if (this.closed) throw new TikvError('TikvBackend is closed');
    return this.connection;
  }

  private budget(operation: string) {
    return this.connection.newBudget(operation);
  }
}
