import { PdClient } from '../pd/pd-client';
import { RetryBudget } from '../retry/retry-budget';
import { RegionCache } from './region-cache';
import { RegionRoute } from './region-route';

/**
 * Finds the region owning a key: the cache first, PD on a miss. Concurrent misses for the same key
 * share one PD request (a burst of requests after an invalidation would otherwise all ask PD).
 */
export class RegionLocator {
  private readonly pending = new Map<string, Promise<RegionRoute>>();

  constructor(
    readonly cache: RegionCache,
    private readonly pd: PdClient,
  ) {}

  locate(key: Buffer, budget: RetryBudget): Promise<RegionRoute> {
    const cached = this.cache.find(key);
    if (cached) return Promise.resolve(cached);
    const pendingKey = key.toString('latin1');
    let lookup = this.pending.get(pendingKey);
    if (!lookup) {
      lookup = this.loadFromPd(key, budget).finally(() => this.pending.delete(pendingKey));
      this.pending.set(pendingKey, lookup);
    }
    return lookup;
  }

  private async loadFromPd(key: Buffer, budget: RetryBudget): Promise<RegionRoute> {
    for (;;) {
      const route = await this.pd.getRegion(key, budget);
      if (route) {
        this.cache.insert(route);
        return route;
      }
      await budget.backoff('regionMiss', `PD has no region for key ${key.toString('hex')}`);
    }
  }
}
