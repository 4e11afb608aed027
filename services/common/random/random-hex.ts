import { randomUUID } from 'node:crypto';

/** The hex digits of a version-4 UUID that are wholly random (8-4-…-12; not the two in between). */
const MAX_LENGTH = 24;

/**
 * `length` (at most 24) random lowercase hex characters, for ids made on every request (request
 * and lease ids). Taken from a UUID because Node draws UUIDs from a buffer of random bytes it
 * fills 128 UUIDs at a time, where `randomBytes` asks OpenSSL once per id: at 1M URLs that was
 * ~0.8 % of the scheduler's main thread (bench:frontier profile). Both are cryptographically
 * strong.
 */
export function randomHex(length: number): string {
  if (!Number.isInteger(length) || length < 1 || length > MAX_LENGTH) {
    throw new RangeError(`randomHex takes 1 to ${MAX_LENGTH} characters, not ${length}`);
  }
  // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: the third group starts with the version, the fourth
  // with the variant, so only the first two groups and the last are taken.
  const uuid = randomUUID();
  return (uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(24)).slice(0, length);
}
