import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ServiceName } from '../../services/common/storage/service-name';

export type ServiceTokens = Record<ServiceName, string>;

/**
 * The three services' bearer tokens for a local run: generated once, kept (mode 0600) in the data
 * directory so that a second run reuses them together with the data.
 */
export function loadOrCreateServiceTokens(path: string): ServiceTokens {
  if (existsSync(path)) {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Partial<ServiceTokens>;
    if (stored.scheduler && stored.downloader && stored.sampler) return stored as ServiceTokens;
  }
  const tokens: ServiceTokens = {
    scheduler: newToken(),
    downloader: newToken(),
    sampler: newToken(),
  };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
  return tokens;
}

function newToken(): string {
  return randomBytes(24).toString('hex');
}
