/**
 * Errors the storage layer raises on purpose, so callers can tell a broken rule (a bug to fix) from
 * an infrastructure failure (worth a retry).
 */

/** A name or document violates CONVENTION.md or the storage key rules; retrying cannot help. */
export class StorageConventionError extends Error {
  override readonly name = 'StorageConventionError';
}

/** `update` gave up because other writers kept changing the row between its read and its swap. */
export class UpdateConflictError extends Error {
  override readonly name = 'UpdateConflictError';

  constructor(
    readonly storageKey: string,
    readonly attempts: number,
  ) {
    super(`update of ${storageKey} lost the compare-and-swap race ${attempts} times; giving up`);
  }
}
