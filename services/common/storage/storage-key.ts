import { PrimaryKey, encodePrimaryKey, type PrimaryKeyInput } from './primary-key';
import type { ServiceName } from './service-name';
import { StorageConventionError } from './storage-errors';

/**
 * Longest full key (`{service}:{table}:{primary_key}` in UTF-8) the keyspace accepts. LMDB's limit
 * is 1978 bytes with 4 KiB pages and its expiry index prefixes keys with a few more bytes; staying
 * well below it means a key accepted on one backend is valid on the other.
 */
export const MAX_STORAGE_KEY_BYTES = 1024;

/** Where one table lives: the constant `{service}:{table}:` prefix every one of its keys starts with. */
export class TableLocation {
  /** `{service}:{table}:` as text, for building keys by concatenation. */
  readonly prefix: string;
  /** The same prefix as bytes, for range bounds. */
  readonly prefixBytes: Buffer;

  constructor(
    readonly service: ServiceName,
    readonly tableName: string,
  ) {
    this.prefix = `${service}:${tableName}:`;
    this.prefixBytes = Buffer.from(this.prefix, 'utf8');
  }

  /** The full key of one row. The prefix is fixed here, so no primary key can leave this table. */
  keyOf(primaryKey: PrimaryKeyInput): Buffer {
    const encoded = encodePrimaryKey(primaryKey);
    const key = Buffer.from(this.prefix + encoded, 'utf8');
    if (key.length > MAX_STORAGE_KEY_BYTES) {
      throw new StorageConventionError(
        `key ${this.prefix}${encoded.slice(0, 40)}… is ${key.length} bytes; ` +
          `the limit is ${MAX_STORAGE_KEY_BYTES} (hash long values before using them as keys)`,
      );
    }
    return key;
  }

  /** Recovers the primary key of a row the backend returned from a scan of this table. */
  primaryKeyOf(key: Buffer): PrimaryKey {
    return PrimaryKey.fromEncoded(key.toString('utf8', this.prefixBytes.length));
  }

  /** Human-readable key for error messages. */
  describe(primaryKey: PrimaryKeyInput): string {
    return this.prefix + encodePrimaryKey(primaryKey);
  }
}
