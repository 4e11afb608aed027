import { TikvConfigurationError } from '../tikv-errors';

/**
 * PD members advertise URLs with a scheme (`http://127.0.0.1:2379`) while grpc-js wants a bare
 * `host:port`; configured endpoints may come either way. TLS (https) is not supported yet, and
 * silently downgrading to plaintext would be wrong, so it is refused loudly.
 */
export function pdAddressFromUrl(urlOrAddress: string): string {
  const trimmed = urlOrAddress.trim().replace(/\/+$/, '');
  if (/^https:\/\//i.test(trimmed)) {
    throw new TikvConfigurationError(
      `PD endpoint ${urlOrAddress} uses TLS, which this TiKV backend does not support yet`,
    );
  }
  const address = trimmed.replace(/^http:\/\//i, '');
  if (!/^[^/\s]+:\d+$/.test(address)) {
    throw new TikvConfigurationError(`PD endpoint "${urlOrAddress}" is not host:port`);
  }
  return address;
}
