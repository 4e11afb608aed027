import { KvPair, TikvMethodName, TikvRawMethods } from '../protocol/wire-types';
import { DoubleRegion } from './cluster-topology';
import { OrderedRawStore } from './ordered-raw-store';

type Request<K extends TikvMethodName> = TikvRawMethods[K][0];
type Body<K extends TikvMethodName> = Omit<TikvRawMethods[K][1], 'region_error'>;

/** TiKV's default `storage.max-key-size`. */
const MAX_KEY_BYTES = 8 * 1024;
export const TTL_NOT_ENABLED_MESSAGE = 'ttl is not enabled, but get put request with ttl';

/** What the double observed, so tests can assert the client's protocol discipline. */
export interface RawKvEngineStats {
  /** RawPut/RawBatchPut/RawDelete/RawBatchDelete sent without `for_cas` (breaks CAS atomicity). */
  writesWithoutForCas: number;
  /** RawGetKeyTTL calls on a non-TTL server: a real TiKV panics on each (notes §6). */
  ttlProbesOnNonTtlServer: number;
}

/**
 * Executes raw-KV commands after routing checks passed, with TiKV's storage-level rules: TTL only
 * when enabled, max key size, ttls length, expired rows invisible, CAS atomic (Node runs each
 * command to completion, which is the latch TiKV takes). Scans are clamped to the region's range.
 */
export class RawKvEngine {
  readonly stats: RawKvEngineStats = { writesWithoutForCas: 0, ttlProbesOnNonTtlServer: 0 };
  private readonly data: OrderedRawStore;

  constructor(
    nowSeconds: () => number,
    readonly ttlEnabled: boolean,
  ) {
    this.data = new OrderedRawStore(nowSeconds);
  }

  execute<K extends TikvMethodName>(method: K, request: Request<K>, region: DoubleRegion): Body<K> {
    const command = this.commands[method] as (request: Request<K>, region: DoubleRegion) => Body<K>;
    return command(request, region);
  }

  private readonly commands: {
    [K in TikvMethodName]: (request: Request<K>, region: DoubleRegion) => Body<K>;
  } = {
    RawGet: (request) => {
      const value = this.data.get(request.key);
      return { error: '', value: value ?? Buffer.alloc(0), not_found: value === undefined };
    },
    RawBatchGet: (request) => {
      const pairs: KvPair[] = [];
      for (const key of request.keys) {
        const value = this.data.get(key);
        if (value !== undefined) pairs.push({ key, value });
      }
      return { pairs };
    },
    RawPut: (request) => {
      const refusal = this.refuseWrite([request.key], [Number(request.ttl ?? 0)], {
        isForCas: request.for_cas,
      });
      if (refusal) return { error: refusal };
      this.data.put(request.key, request.value, Number(request.ttl ?? 0));
      return { error: '' };
    },
    RawBatchPut: (request) => {
      const ttls = (request.ttls ?? []).map(Number);
      const pairs = request.pairs;
      if (ttls.length > 1 && ttls.length !== pairs.length) {
        return { error: 'The length of ttls does not equal to the length of pairs' };
      }
      const ttlOf = (index: number): number =>
        ttls.length === 0 ? Number(request.ttl ?? 0) : ttls.length === 1 ? ttls[0] : ttls[index];
      const refusal = this.refuseWrite(
        pairs.map((pair) => pair.key),
        pairs.map((_, index) => ttlOf(index)),
        { isForCas: request.for_cas },
      );
      if (refusal) return { error: refusal };
      pairs.forEach((pair, index) => this.data.put(pair.key, pair.value, ttlOf(index)));
      return { error: '' };
    },
    RawDelete: (request) => {
      this.countNonAtomic(request.for_cas);
      this.data.delete(request.key);
      return { error: '' };
    },
    RawBatchDelete: (request) => {
      this.countNonAtomic(request.for_cas);
      for (const key of request.keys) this.data.delete(key);
      return { error: '' };
    },
    // TiKV's delete range has no atomic variant and takes no latch: it is not serialized with
    // compare-and-swap (notes §5.1), which the double cannot show, as Node runs each command whole.
    RawDeleteRange: (request) => {
      const oversized = [request.start_key, request.end_key].find(
        (key) => key.length > MAX_KEY_BYTES,
      );
      if (oversized) return { error: maxKeySizeExceeded(oversized) };
      this.data.deleteRange(request.start_key, request.end_key);
      return { error: '' };
    },
    RawScan: (request, region) => {
      if (request.reverse) {
        return { kvs: [abortPair('reverse scan is not implemented by the test double')] };
      }
      const lower = maxKey(request.start_key, region.startKey);
      const upper = minUpperBound(request.end_key, region.endKey);
      const rows = this.data.scan(lower, upper, request.limit);
      return {
        kvs: rows.map((row) => (request.key_only ? { ...row, value: Buffer.alloc(0) } : row)),
      };
    },
    RawGetKeyTTL: (request) => {
      if (!this.ttlEnabled) {
        this.stats.ttlProbesOnNonTtlServer += 1;
        throw new Error('panic: get ttl on non-ttl store (a real TiKV process would crash here)');
      }
      const ttl = this.data.remainingTtl(request.key);
      return { error: '', ttl: String(ttl ?? 0), not_found: ttl === undefined };
    },
    RawCompareAndSwap: (request) => {
      const ttl = Number(request.ttl ?? 0);
      const refusal = this.refuseWrite([request.key], [ttl], { isForCas: true });
      if (refusal)
        return {
          error: refusal,
          succeed: false,
          previous_not_exist: true,
          previous_value: Buffer.alloc(0),
        };
      const current = this.data.get(request.key);
      const matches = request.previous_not_exist
        ? current === undefined
        : current !== undefined && current.equals(request.previous_value);
      if (matches) this.data.put(request.key, request.value, ttl);
      return {
        error: '',
        succeed: matches,
        previous_not_exist: current === undefined,
        previous_value: current ?? Buffer.alloc(0),
      };
    },
  };

  /** Storage-level refusals, checked before anything is written (as TiKV does). */
  private refuseWrite(
    keys: readonly Buffer[],
    ttls: readonly number[],
    { isForCas }: { isForCas: boolean },
  ): string | undefined {
    const oversized = keys.find((key) => key.length > MAX_KEY_BYTES);
    if (oversized) return maxKeySizeExceeded(oversized);
    if (!this.ttlEnabled && ttls.some((ttl) => ttl > 0)) return TTL_NOT_ENABLED_MESSAGE;
    this.countNonAtomic(isForCas);
    return undefined;
  }

  private countNonAtomic(forCas: boolean): void {
    if (!forCas) this.stats.writesWithoutForCas += 1;
  }
}

function maxKeySizeExceeded(key: Buffer): string {
  return `max key size exceeded, size: ${key.length}, limit: ${MAX_KEY_BYTES}`;
}

function abortPair(message: string): KvPair {
  return { error: { abort: message, retryable: '' }, key: Buffer.alloc(0), value: Buffer.alloc(0) };
}

function maxKey(a: Buffer, b: Buffer): Buffer {
  return Buffer.compare(a, b) >= 0 ? a : b;
}

/** The tighter of two exclusive upper bounds, where empty means unbounded. */
function minUpperBound(a: Buffer, b: Buffer): Buffer {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return Buffer.compare(a, b) <= 0 ? a : b;
}
