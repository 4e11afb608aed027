import * as grpc from '@grpc/grpc-js';
import { RequestContext, TikvMethodName, TikvRawMethods } from '../protocol/wire-types';
import { RetryBudget } from '../retry/retry-budget';
import { RegionCache } from '../routing/region-cache';
import { RegionRoute, targetPeer } from '../routing/region-route';
import { StoreResolver } from '../routing/store-resolver';
import { TikvAmbiguousResultError, TikvConfigurationError, TikvError } from '../tikv-errors';
import { ClientPool } from './grpc-client-pool';
import {
  describeServiceError,
  isServiceError,
  isTransientTransportError,
  wasNeverSent,
} from './grpc-status';
import { RegionErrorHandler } from './region-error-handler';
import { TikvStoreClient } from './tikv-store-client';

/** Returned instead of a response when the caller must re-locate (caches fixed, backoff done). */
export const RETRY_AFTER_RELOCATE = Symbol('retry-after-relocate');

type Request<K extends TikvMethodName> = TikvRawMethods[K][0];
type Response<K extends TikvMethodName> = TikvRawMethods[K][1];

export interface RequestSenderSettings {
  clusterId: string;
  requestTimeoutMs: number;
}

/**
 * Sends one raw request to the leader of one region and classifies the outcome. It never loops:
 * the callers (point, batch, scan) own their loops because after a region error the same keys may
 * belong to different regions and must be re-planned.
 */
export class RegionRequestSender {
  constructor(
    private readonly cache: RegionCache,
    private readonly stores: StoreResolver,
    private readonly pool: ClientPool<TikvStoreClient>,
    private readonly regionErrors: RegionErrorHandler,
    private readonly settings: RequestSenderSettings,
  ) {}

  /**
   * @param idempotent false for compare-and-swap: a transport failure after the request may have
   *   reached TiKV is reported as TikvAmbiguousResultError instead of being re-sent.
   */
  async send<K extends TikvMethodName>(
    route: RegionRoute,
    method: K,
    request: Request<K>,
    budget: RetryBudget,
    idempotent: boolean,
  ): Promise<Response<K> | typeof RETRY_AFTER_RELOCATE> {
    const peer = targetPeer(route, budget.retryCount);
    const address =
      peer &&
      (this.stores.cachedAddress(peer.store_id) ??
        (await this.stores.resolve(peer.store_id, budget)));
    if (!peer || !address) {
      this.cache.invalidate(route);
      await budget.backoff('regionMiss', `region ${route.id} has no reachable peer`);
      return RETRY_AFTER_RELOCATE;
    }

    const context: RequestContext = {
      region_id: route.id,
      region_epoch: route.epoch,
      peer,
      cluster_id: this.settings.clusterId,
    };
    request.context = context;

    let response: Response<K>;
    try {
      response = await this.pool.get(address).call(method, request, this.settings.requestTimeoutMs);
    } catch (error) {
      if (!isServiceError(error)) throw error;
      const cause = `${method} to store ${peer.store_id} at ${address}: ${describeServiceError(error)}`;
      if (error.code === grpc.status.INVALID_ARGUMENT) {
        // TiKV ≥ 8.0 answers a foreign cluster_id this way: wrong endpoints, not a transient fault.
        throw new TikvConfigurationError(`TiKV rejected ${cause}`);
      }
      if (!isTransientTransportError(error)) throw new TikvError(`TiKV ${cause}`, { cause: error });
      if (!idempotent && !wasNeverSent(error)) {
        throw new TikvAmbiguousResultError(
          `TiKV ${cause}; the request may or may not have been applied — re-read the key`,
          { cause: error },
        );
      }
      this.pool.drop(address);
      this.stores.invalidate(peer.store_id);
      this.cache.invalidate(route);
      await budget.backoff('tikvRpc', cause);
      return RETRY_AFTER_RELOCATE;
    }

    if (response.region_error) {
      await this.regionErrors.handle(response.region_error, route, peer, address, budget);
      return RETRY_AFTER_RELOCATE;
    }
    return response;
  }
}
