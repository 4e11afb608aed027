import type { components } from '../../../generated/downloader';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import { SINGLETON_PRIMARY_KEY } from '../../common/storage/primary-key';
import { formatContractTime } from '../rendering/contract-time';

export type ConcurrencyConfig = components['schemas']['ConcurrencyConfig'];

/**
 * `downloader:concurrency_config:current` — the global cost brake. The stored value wins over the
 * start-up flag: an operator's online decision must survive a restart, so the flag only seeds a
 * fresh keyspace.
 */
export class ConcurrencyConfigStore {
  constructor(private readonly table: KeyspaceTable<ConcurrencyConfig>) {}

  async loadOrSeed(initialCount: number): Promise<ConcurrencyConfig> {
    const seed: ConcurrencyConfig = {
      max_concurrent_count: initialCount,
      updated_at: formatContractTime(new Date()),
    };
    const result = await this.table.compareAndSwap(SINGLETON_PRIMARY_KEY, undefined, seed);
    return result.isSwapped ? seed : (result.previous as ConcurrencyConfig);
  }

  async save(maxConcurrentCount: number): Promise<ConcurrencyConfig> {
    const config: ConcurrencyConfig = {
      max_concurrent_count: maxConcurrentCount,
      updated_at: formatContractTime(new Date()),
    };
    await this.table.put(SINGLETON_PRIMARY_KEY, config);
    return config;
  }
}
