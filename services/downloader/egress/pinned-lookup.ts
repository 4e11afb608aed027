import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './destination-resolver';

/**
 * A `lookup` for net/http/https that always answers the address the policy already approved, so
 * the socket connects to exactly what was checked (no second DNS answer in between). Host name,
 * Host header and TLS SNI stay the original name.
 */
export function pinnedLookup(resolved: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all === true) {
      (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, [resolved]);
    } else {
      callback(null, resolved.address, resolved.family);
    }
  };
}
