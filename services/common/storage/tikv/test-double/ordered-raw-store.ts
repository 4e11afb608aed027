/**
 * The test double's data: one ordered map of raw key → value (memcmp order) with TiKV's TTL
 * semantics (expiry = server clock in whole seconds + ttl; an expired row reads as absent).
 * Regions are only a routing view over this single keyspace, as replication is not simulated.
 */
interface StoredRow {
  key: Buffer;
  value: Buffer;
  /** Unix seconds at which the row stops existing; 0 = never. */
  expiresAt: number;
}

export class OrderedRawStore {
  private readonly rows: StoredRow[] = [];

  constructor(private readonly nowSeconds: () => number) {}

  get(key: Buffer): Buffer | undefined {
    const index = this.indexOf(key);
    const row = this.rows[index];
    return row && row.key.equals(key) && this.isLive(row) ? row.value : undefined;
  }

  put(key: Buffer, value: Buffer, ttlSeconds: number): void {
    const row = {
      key: Buffer.from(key),
      value: Buffer.from(value),
      expiresAt: ttlSeconds > 0 ? Math.floor(this.nowSeconds()) + ttlSeconds : 0,
    };
    const index = this.indexOf(key);
    if (this.rows[index]?.key.equals(key)) this.rows[index] = row;
    else this.rows.splice(index, 0, row);
  }

  delete(key: Buffer): void {
    const index = this.indexOf(key);
    if (this.rows[index]?.key.equals(key)) this.rows.splice(index, 1);
  }

  /** Removes every row in [lower, upper), expired or not; an empty `upper` is unbounded. */
  deleteRange(lower: Buffer, upper: Buffer): void {
    const first = this.indexOf(lower);
    const last = upper.length === 0 ? this.rows.length : this.indexOf(upper);
    if (last > first) this.rows.splice(first, last - first);
  }

  /** Live rows in [lower, upper) ascending; an empty `upper` is unbounded. */
  scan(lower: Buffer, upper: Buffer, limit: number): Array<{ key: Buffer; value: Buffer }> {
    const found: Array<{ key: Buffer; value: Buffer }> = [];
    for (let index = this.indexOf(lower); index < this.rows.length; index += 1) {
      const row = this.rows[index];
      if (upper.length > 0 && Buffer.compare(row.key, upper) >= 0) break;
      if (!this.isLive(row)) continue;
      found.push({ key: row.key, value: row.value });
      if (found.length >= limit) break;
    }
    return found;
  }

  /** Remaining seconds (0 = no TTL), or undefined when absent or expired. */
  remainingTtl(key: Buffer): number | undefined {
    const row = this.rows[this.indexOf(key)];
    if (!row || !row.key.equals(key) || !this.isLive(row)) return undefined;
    return row.expiresAt === 0 ? 0 : row.expiresAt - Math.floor(this.nowSeconds());
  }

  private isLive(row: StoredRow): boolean {
    return row.expiresAt === 0 || row.expiresAt > this.nowSeconds();
  }

  /** First index whose key is ≥ `key`. */
  private indexOf(key: Buffer): number {
    let low = 0;
    let high = this.rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (Buffer.compare(this.rows[middle].key, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
