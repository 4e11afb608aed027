import type { PrimaryKey, PrimaryKeyInput, PrimaryKeyPrefixInput } from './primary-key';

/** Options of a single write. */
export interface WriteOptions {
  /** Whole seconds until the row disappears; absent or 0 means "never expires". */
  ttlSeconds?: number;
}

/** One row of a batch write. */
export interface KeyspaceWrite<T> extends WriteOptions {
  primaryKey: PrimaryKeyInput;
  value: T;
}

export interface KeyspaceRow<T> {
  primaryKey: PrimaryKey;
  value: T;
}

export interface ScanOptions {
  /** Only primary keys starting with this (a raw string, or whole leading parts). */
  prefix?: PrimaryKeyPrefixInput;
  /** Exclusive resume point: usually the `nextAfter` of the previous page. */
  after?: PrimaryKeyInput;
  /** Rows per page, 1 to MAX_SCAN_LIMIT. */
  limit: number;
}

export interface ScanPage<T> {
  /** Live rows in ascending primary-key order. */
  rows: Array<KeyspaceRow<T>>;
  /** Pass as `after` to read the next page; null when no row follows this page. */
  nextAfter: PrimaryKey | null;
}

/** A page of primary keys only (see scanKeys). */
export interface KeyPage {
  keys: PrimaryKey[];
  /** Pass as `after` to read the next page; null when no row follows this page. */
  nextAfter: PrimaryKey | null;
}

export interface CompareAndSwapResult<T> {
  isSwapped: boolean;
  /** The value found before the operation; undefined when absent or expired. */
  previous: T | undefined;
}

export interface UpdateOptions extends WriteOptions {
  /** Compare-and-swap attempts before UpdateConflictError; default DEFAULT_UPDATE_ATTEMPTS. */
  maxAttempts?: number;
}

/** One change shipped from the owning service: `null` means the row was deleted at the source. */
export interface ReplicaChange<T> {
  primaryKey: PrimaryKeyInput;
  value: T | null;
}
