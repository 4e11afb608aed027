/**
 * Converts the interface's `ttlSeconds` to TiKV's uint64 seconds (0 = never expires).
 *
 * TiKV stores `expire = floor(now in seconds) + ttl` and treats a row as gone once its whole-second
 * clock reaches `expire`, so a row written with ttl N lives somewhere in (N-1, N] seconds — up to a
 * second less than asked, which made a lease or a "still there right after writing" check fail at
 * random. Sending ceil(N) + 1 makes the lifetime (N, N+1]: never shorter than asked, like LMDB's.
 */
export function toWireTtl(ttlSeconds: number | undefined): number {
  if (ttlSeconds === undefined || ttlSeconds === 0) return 0;
  if (!Number.isFinite(ttlSeconds) || ttlSeconds < 0) {
    throw new RangeError(`ttlSeconds must be a non-negative finite number, got ${ttlSeconds}`);
  }
  return Math.ceil(ttlSeconds) + 1;
}
