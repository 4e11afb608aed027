/**
 * The shard bucket of a domain: 256 buckets by FNV-1a of the domain name, written as two hex
 * digits. Tables whose order is global (url_revisit_index) lead their keys with it, so that when
 * the frontier is split across processes by domain (docs/frontier-sharding.md) each process scans
 * only the buckets it owns. One process owns all 256.
 */
export const SHARD_BUCKET_COUNT = 256;

/** Bucket names by number, made once: a revisit-index key is built for every URL settled. */
const BUCKET_NAMES: readonly string[] = Array.from({ length: SHARD_BUCKET_COUNT }, (_, bucket) =>
  bucket.toString(16).padStart(2, '0'),
);

export function shardBucketOf(domain: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < domain.length; index += 1) {
    hash ^= domain.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return BUCKET_NAMES[(hash >>> 0) % SHARD_BUCKET_COUNT];
}

/** Every bucket, in key order. */
export function allShardBuckets(): string[] {
  return [...BUCKET_NAMES];
}
