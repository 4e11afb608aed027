import * as grpc from '@grpc/grpc-js';
import {
  GetRegionResponse,
  PD_ERROR_REGION_NOT_FOUND,
  PdMethodName,
  PdMethods,
  PdRequestHeader,
  STORE_STATE_TOMBSTONE,
  Store,
} from '../protocol/wire-types';
import { RetryBudget } from '../retry/retry-budget';
import {
  describeServiceError,
  isServiceError,
  isTransientTransportError,
} from '../rpc/grpc-status';
import { RegionRoute, regionContainsKey, routeFromRegion } from '../routing/region-route';
import { TikvConfigurationError, TikvError } from '../tikv-errors';
import {
  PdConnections,
  PdMembership,
  PdUnavailableError,
  discoverPdMembership,
} from './pd-member-discovery';

const PD_ERROR_STORE_TOMBSTONE = 3;

/** Methods whose request is `header` + these fields. */
type PdBody<K extends PdMethodName> = Omit<PdMethods[K][0], 'header'>;

/**
 * Talks to the PD leader: region and store lookups with `cluster_id` in every header. When the
 * leader stops answering (transport error, "not leader"), it re-discovers the leader among the
 * known members and the configured endpoints and retries, all within the caller's budget.
 */
export class PdClient {
  private header: PdRequestHeader;
  private recovery: Promise<void> | undefined;

  private constructor(
    private membership: PdMembership,
    private readonly configuredEndpoints: readonly string[],
    private readonly pool: PdConnections,
    private readonly timeoutMs: number,
  ) {
    this.header = { cluster_id: membership.clusterId };
  }

  static async connect(
    endpoints: readonly string[],
    pool: PdConnections,
    timeoutMs: number,
    budget: RetryBudget,
  ): Promise<PdClient> {
    for (;;) {
      try {
        const membership = await discoverPdMembership(endpoints, pool, timeoutMs);
        return new PdClient(membership, endpoints, pool, timeoutMs);
      } catch (error) {
        if (!(error instanceof PdUnavailableError)) throw error;
        await budget.backoff('pdRpc', error.message);
      }
    }
  }

  get clusterId(): string {
    return this.membership.clusterId;
  }

  get leaderAddress(): string {
    return this.membership.leaderAddress;
  }

  /** The region holding `key`, or undefined when PD knows none (yet): back off and ask again. */
  async getRegion(key: Buffer, budget: RetryBudget): Promise<RegionRoute | undefined> {
    const response = await this.call('GetRegion', { region_key: key }, budget, [
      PD_ERROR_REGION_NOT_FOUND,
    ]);
    return this.toRoute(response, key);
  }

  /** The store, or undefined when it is a tombstone (removed from the cluster). */
  async getStore(storeId: string, budget: RetryBudget): Promise<Store | undefined> {
    const response = await this.call('GetStore', { store_id: storeId }, budget, [
      PD_ERROR_STORE_TOMBSTONE,
    ]);
    const store = response.store;
    if (!store || store.state === STORE_STATE_TOMBSTONE || !store.address) return undefined;
    return store;
  }

  private toRoute(response: GetRegionResponse, key: Buffer): RegionRoute | undefined {
    if (!response.region || (response.header?.error?.type ?? 0) !== 0) return undefined;
    const route = routeFromRegion(response.region, response.leader);
    return regionContainsKey(route, key) ? route : undefined;
  }

  private async call<K extends PdMethodName>(
    method: K,
    body: PdBody<K>,
    budget: RetryBudget,
    passThroughErrorTypes: readonly number[],
  ): Promise<PdMethods[K][1]> {
    for (;;) {
      const leader = this.membership.leaderAddress;
      let response: PdMethods[K][1];
      try {
        const request = { ...body, header: this.header } as PdMethods[K][0];
        response = await this.pool.get(leader).call(method, request, this.timeoutMs);
      } catch (error) {
        if (!isServiceError(error)) throw error;
        if (error.code === grpc.status.FAILED_PRECONDITION) {
          throw new TikvConfigurationError(`PD rejected ${method}: ${error.details}`);
        }
        if (!isTransientTransportError(error)) {
          throw new TikvError(`PD ${method} failed: ${describeServiceError(error)}`);
        }
        await this.recoverLeader(`PD ${leader} ${method}: ${describeServiceError(error)}`, budget);
        continue;
      }
      const headerError = (response as { header: GetRegionResponse['header'] }).header?.error;
      if (
        !headerError ||
        headerError.type === 0 ||
        passThroughErrorTypes.includes(headerError.type)
      ) {
        return response;
      }
      await budget.backoff(
        'pdRpc',
        `PD ${method} error ${headerError.type}: ${headerError.message}`,
      );
    }
  }

  /** Concurrent failures share one re-discovery instead of each hammering every member. */
  private async recoverLeader(cause: string, budget: RetryBudget): Promise<void> {
    const previousLeader = this.membership.leaderAddress;
    this.recovery ??= this.rediscover().finally(() => (this.recovery = undefined));
    try {
      await this.recovery;
    } catch (error) {
      if (!(error instanceof PdUnavailableError)) throw error;
      await budget.backoff('pdRpc', `${cause}; ${error.message}`);
      return;
    }
    if (this.membership.leaderAddress !== previousLeader) {
      this.pool.drop(previousLeader);
      await budget.retryNow(cause);
    } else {
      await budget.backoff('pdRpc', cause);
    }
  }

  private async rediscover(): Promise<void> {
    const candidates = [
      ...this.membership.memberAddresses.filter((a) => a !== this.membership.leaderAddress),
      ...this.configuredEndpoints,
      this.membership.leaderAddress,
    ];
    this.membership = await discoverPdMembership(
      candidates,
      this.pool,
      this.timeoutMs,
      this.membership.clusterId,
    );
  }
}
