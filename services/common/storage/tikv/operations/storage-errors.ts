import { KvPair } from '../protocol/wire-types';
import { TikvStorageError, TikvTtlNotEnabledError } from '../tikv-errors';

/**
 * TiKV's wording when a write carries a TTL but `storage.enable-ttl` is off. Detecting the refusal
 * is the safe way to learn that TTL is unavailable: the write is rejected before anything is
 * stored, whereas probing with RawGetKeyTTL would panic such a server (notes §6).
 */
const TTL_NOT_ENABLED = /ttl is not enabled/i;

/** Turns a response's storage `error` string into an exception (never retried: it is final). */
export function throwOnStorageError(operation: string, error: string): void {
  if (!error) return;
  if (TTL_NOT_ENABLED.test(error)) throw new TikvTtlNotEnabledError(operation, error);
  throw new TikvStorageError(operation, error);
}

/** Scan and batch-get report storage errors inside a KvPair rather than in a response field. */
export function throwOnPairErrors(operation: string, pairs: readonly KvPair[]): void {
  for (const pair of pairs) {
    const message = pair.error?.abort || pair.error?.retryable;
    if (message) throw new TikvStorageError(operation, message);
  }
}
