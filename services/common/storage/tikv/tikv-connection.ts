import { PdClient } from './pd/pd-client';
import { pdAddressFromUrl } from './pd/pd-address';
import { loadTikvProtocol } from './protocol/load-protocol';
import { PdMethods } from './protocol/wire-types';
import { RetryBudget } from './retry/retry-budget';
import { unaryClientPool } from './rpc/grpc-client-pool';
import { tikvStoreClientPool } from './rpc/tikv-store-client';
import { RegionErrorHandler } from './rpc/region-error-handler';
import { RegionRequestSender } from './rpc/region-request-sender';
import { RegionCache } from './routing/region-cache';
import { RegionLocator } from './routing/region-locator';
import { StoreResolver } from './routing/store-resolver';
import { ResolvedTikvBackendOptions } from './tikv-backend-options';

/**
 * The wiring of one client: PD, the caches, the channel pools and the request sender. Built once
 * by `connect`; the backend's operations only use `locator`, `sender` and `newBudget`.
 */
export class TikvConnection {
  private constructor(
    readonly pd: PdClient,
    readonly locator: RegionLocator,
    readonly sender: RegionRequestSender,
    private readonly options: ResolvedTikvBackendOptions,
    private readonly pools: ReadonlyArray<{ closeAll(): void }>,
  ) {}

  static async connect(options: ResolvedTikvBackendOptions): Promise<TikvConnection> {
    const protocol = loadTikvProtocol();
    const channelSettings = { maxReceiveMessageBytes: options.maxReceiveMessageBytes };
    const pdPool = unaryClientPool<PdMethods>(protocol.PdClient, channelSettings);
    const tikvPool = tikvStoreClientPool(
      protocol.TikvClient,
      channelSettings,
      options.useBatchCommands,
    );
    try {
      const endpoints = options.pdEndpoints.map(pdAddressFromUrl);
      const budget = new RetryBudget('connect', options.retryBudgetMs, options.backoff);
      const pd = await PdClient.connect(endpoints, pdPool, options.requestTimeoutMs, budget);
      const cache = new RegionCache();
      const stores = new StoreResolver(pd);
      const sender = new RegionRequestSender(
        cache,
        stores,
        tikvPool,
        new RegionErrorHandler(cache, stores, tikvPool),
        { clusterId: pd.clusterId, requestTimeoutMs: options.requestTimeoutMs },
      );
      const locator = new RegionLocator(cache, pd);
      return new TikvConnection(pd, locator, sender, options, [pdPool, tikvPool]);
    } catch (error) {
      pdPool.closeAll();
      tikvPool.closeAll();
      throw error;
    }
  }

  newBudget(operation: string): RetryBudget {
    return new RetryBudget(operation, this.options.retryBudgetMs, this.options.backoff);
  }

  close(): void {
    for (const pool of this.pools) pool.closeAll();
  }
}
