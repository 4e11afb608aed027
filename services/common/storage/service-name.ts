import { StorageConventionError } from './storage-errors';

/**
 * The services that own a keyspace. Closed on purpose: the service name is the first key segment,
 * and a typo here would silently create a fourth, orphaned keyspace. "crs" (the system's name and
 * the downloader's old name) is deliberately absent so `crs:` can never start a key.
 */
export const SERVICE_NAMES = ['scheduler', 'downloader', 'sampler'] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

export function isServiceName(value: string): value is ServiceName {
  return (SERVICE_NAMES as readonly string[]).includes(value);
}

export function assertServiceName(value: string): asserts value is ServiceName {
  if (!isServiceName(value)) {
    throw new StorageConventionError(
      `unknown service "${value}"; expected one of: ${SERVICE_NAMES.join(', ')}`,
    );
  }
}
