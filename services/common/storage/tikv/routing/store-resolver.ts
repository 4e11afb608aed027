import { PdClient } from '../pd/pd-client';
import { RetryBudget } from '../retry/retry-budget';

/**
 * Store id → TiKV gRPC address, learned lazily from PD and kept until a failure says otherwise
 * (transport error, StoreNotMatch). Concurrent misses for the same store share one PD call.
 */
export class StoreResolver {
  private readonly addresses = new Map<string, string>();
  private readonly pending = new Map<string, Promise<string | undefined>>();

  constructor(private readonly pd: PdClient) {}

  cachedAddress(storeId: string): string | undefined {
    return this.addresses.get(storeId);
  }

  /** The store's address, or undefined when PD says the store is gone (tombstone). */
  resolve(storeId: string, budget: RetryBudget): Promise<string | undefined> {
    const cached = this.addresses.get(storeId);
    if (cached) return Promise.resolve(cached);
    let lookup = this.pending.get(storeId);
    if (!lookup) {
      lookup = this.load(storeId, budget).finally(() => this.pending.delete(storeId));
      this.pending.set(storeId, lookup);
    }
    return lookup;
  }

  invalidate(storeId: string): void {
    this.addresses.delete(storeId);
  }

  private async load(storeId: string, budget: RetryBudget): Promise<string | undefined> {
    const store = await this.pd.getStore(storeId, budget);
    if (store) this.addresses.set(storeId, store.address);
    return store?.address;
  }
}
