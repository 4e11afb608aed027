import { hash, timingSafeEqual } from 'node:crypto';
import type { TokenAuthenticator } from '../contract-runtime/caller-identity';

/**
 * Admits exactly the service's fixed token. Both sides are hashed first so the comparison is
 * constant-time regardless of the presented token's length.
 */
export function createServiceTokenAuthenticator(serviceToken: string): TokenAuthenticator {
  const expected = digest(serviceToken);
  return async (presented) =>
    timingSafeEqual(digest(presented), expected) ? { tokenKind: 'service' } : null;
}

/** The one-shot `crypto.hash`: no Hash object per request (url-hash.ts says why it is faster). */
function digest(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}
