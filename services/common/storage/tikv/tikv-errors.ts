/** Errors surfaced by the TiKV backend. Each says what happened and, where possible, what to do. */

export class TikvError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Retries (region errors, busy stores, transport failures) did not succeed within the budget. */
export class TikvRetryBudgetExhaustedError extends TikvError {
  constructor(
    readonly operation: string,
    readonly budgetMs: number,
    readonly attempts: number,
    readonly lastCause: string,
  ) {
    super(
      `TiKV ${operation} gave up: retry budget of ${budgetMs} ms exhausted after ${attempts} ` +
        `attempt(s); last error: ${lastCause}`,
    );
  }
}

/** A write carried ttlSeconds but the cluster runs without `storage.enable-ttl`. */
export class TikvTtlNotEnabledError extends TikvError {
  constructor(
    readonly operation: string,
    serverMessage: string,
  ) {
    super(
      `TiKV ${operation} with ttlSeconds was rejected because TTL is not enabled on this cluster ` +
        `(server said: "${serverMessage}"). Either write without ttlSeconds, or run TiKV with ` +
        `"[storage] enable-ttl = true" — note that it must be set before the first start on a fresh ` +
        `data directory (it cannot be toggled on existing data).`,
    );
  }
}

/** TiKV's storage layer refused the request (response `error` field / KvPair abort): not retryable. */
export class TikvStorageError extends TikvError {
  constructor(
    readonly operation: string,
    readonly serverMessage: string,
  ) {
    super(`TiKV ${operation} failed: ${serverMessage}`);
  }
}

/** A region error that retrying cannot fix (entry too large, flashback in progress, …). */
export class TikvUnretryableRegionError extends TikvError {}

/** Wrong endpoints or cluster: cluster id mismatch, unsupported URL scheme, no PD reachable. */
export class TikvConfigurationError extends TikvError {}

/**
 * A non-idempotent request (compare-and-swap) failed after it may have reached TiKV; it may or may
 * not have been applied, so it is not retried blindly (a retry could report "not swapped" for a
 * swap that actually happened). Re-read the key to find out.
 */
export class TikvAmbiguousResultError extends TikvError {}
