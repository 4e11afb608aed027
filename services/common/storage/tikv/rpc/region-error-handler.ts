import { Peer, Region, RegionError } from '../protocol/wire-types';
import { RetryBudget } from '../retry/retry-budget';
import { RegionCache } from '../routing/region-cache';
import { RegionRoute, compareUint64, routeFromRegion } from '../routing/region-route';
import { StoreResolver } from '../routing/store-resolver';
import { TikvUnretryableRegionError } from '../tikv-errors';
import { describeRegionError } from './describe-region-error';

/**
 * Reacts to a region error the way client-go / client-rust do (notes §4.4): correct the caches with
 * whatever the error teaches, wait when the cluster needs time, and return so the caller re-plans
 * and retries. Throws when retrying cannot help. Region errors are produced before TiKV executes a
 * request, so retrying is safe even for compare-and-swap.
 */
export class RegionErrorHandler {
  constructor(
    private readonly cache: RegionCache,
    private readonly stores: StoreResolver,
    private readonly tikvChannels: { drop(address: string): void },
  ) {}

  async handle(
    error: RegionError,
    route: RegionRoute,
    addressedPeer: Peer,
    addressedStoreAddress: string,
    budget: RetryBudget,
  ): Promise<void> {
    const cause = describeRegionError(error);

    if (error.not_leader) {
      const leader = error.not_leader.leader;
      if (leader && leader.id !== '0') {
        // The new leader is named: switch to it and retry at once (no PD round trip) when it is a
        // peer we know; otherwise the membership changed and PD must tell us the new peer list.
        if (route.peers.some((peer) => peer.id === leader.id)) route.leader = leader;
        else this.cache.invalidate(route);
        return budget.retryNow(cause);
      }
      this.cache.invalidate(route);
      return budget.backoff('regionScheduling', cause);
    }

    if (error.epoch_not_match) {
      return this.onEpochNotMatch(
        error.epoch_not_match.current_regions,
        route,
        addressedPeer,
        budget,
        cause,
      );
    }

    if (error.server_is_busy) {
      const hintMs = Number(error.server_is_busy.backoff_ms) || undefined;
      return budget.backoff('serverBusy', cause, hintMs);
    }

    if (error.store_not_match) {
      // The address now belongs to a different store (restart with a new identity, address reuse):
      // forget the address and the connection, and ask PD where the store lives now.
      this.stores.invalidate(addressedPeer.store_id);
      this.tikvChannels.drop(addressedStoreAddress);
      this.cache.invalidate(route);
      return budget.retryNow(cause);
    }

    if (error.key_not_in_region || error.mismatch_peer_id) {
      this.cache.invalidate(route);
      return budget.retryNow(cause);
    }

    if (error.region_not_found) {
      this.cache.invalidate(route);
      return budget.backoff('regionMiss', cause);
    }

    if (error.stale_command || error.RecoveryInProgress || error.is_witness) {
      this.cache.invalidate(route);
      return budget.backoff('staleCommand', cause);
    }

    if (
      error.max_timestamp_not_synced ||
      error.region_not_initialized ||
      error.read_index_not_ready ||
      error.proposal_in_merging_mode
    ) {
      return budget.backoff('regionScheduling', cause);
    }

    if (error.disk_full) return budget.backoff('diskFull', cause);

    if (error.raft_entry_too_large || error.FlashbackInProgress || error.FlashbackNotPrepared) {
      throw new TikvUnretryableRegionError(`TiKV request cannot succeed: ${cause}`);
    }

    // Message-only errors ("TiKV is Closing", "missing epoch!", …) and kinds newer than this client:
    // the store may be going away, so re-resolve both the region and the store.
    this.cache.invalidate(route);
    this.stores.invalidate(addressedPeer.store_id);
    return budget.backoff('regionMiss', cause);
  }

  private onEpochNotMatch(
    currentRegions: readonly Region[],
    route: RegionRoute,
    addressedPeer: Peer,
    budget: RetryBudget,
    cause: string,
  ): Promise<void> {
    this.cache.invalidate(route);
    if (currentRegions.length === 0) return budget.retryNow(cause);

    const sameRegion = currentRegions.find((region) => region.id === route.id);
    const serverVersion = sameRegion?.region_epoch?.version;
    if (serverVersion && compareUint64(serverVersion, route.epoch.version) < 0) {
      // TiKV is behind our cache (it has not applied the split/merge yet): give it time.
      return budget.backoff('regionScheduling', cause);
    }
    // The answering store leads these regions (the leader check precedes the epoch check), so its
    // peers are the best leader guess; a wrong guess costs one NotLeader round trip.
    for (const region of currentRegions) {
      const leaderGuess = region.peers.find((peer) => peer.store_id === addressedPeer.store_id);
      this.cache.insert(routeFromRegion(region, leaderGuess));
    }
    return budget.retryNow(cause);
  }
}
