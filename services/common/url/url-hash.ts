import { hash } from 'node:crypto';
import { normalizeUrl } from './normalize-url';

/**
 * CONVENTION.md: `url_hash` = first 16 bytes of SHA-256 of the globally normalized URL, lowercase
 * hex, 32 characters; `content_hash` is the same digest over the content bytes.
 */

const HASH_HEX_LENGTH = 32;

/**
 * The one-shot `crypto.hash` (no Hash object per call) is about five times faster than
 * createHash().update().digest() on a URL, and every link of every report is hashed.
 */
function truncatedSha256Hex(bytes: string | Uint8Array): string {
  return hash('sha256', bytes, 'hex').slice(0, HASH_HEX_LENGTH);
}

/**
 * Hash of the normalized form of `url`. Normalizing here (it is idempotent) means a caller can never
 * hash a raw URL by mistake. Throws UrlNormalizationError for URLs that cannot be normalized.
 */
export function urlHash(url: string): string {
  return hashOfNormalizedUrl(normalizeUrl(url));
}

/**
 * Hash of a URL that is already normalized (the output of normalizeUrl / normalizeUrlParts), for
 * callers that normalized it a moment ago: hashing must never be skipped a normalization, so only
 * pass what normalization returned.
 */
export function hashOfNormalizedUrl(normalizedUrl: string): string {
  return truncatedSha256Hex(normalizedUrl);
}

/** Hash of content bytes; a string is hashed as its UTF-8 encoding. */
export function contentHash(content: string | Uint8Array): string {
  return truncatedSha256Hex(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
}
