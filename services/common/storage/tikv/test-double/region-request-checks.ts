import { RegionError, RequestContext } from '../protocol/wire-types';
import { ClusterTopology, regionHasKey } from './cluster-topology';

/**
 * TiKV's server-side routing checks, in TiKV's order (notes §3): store id, region present on the
 * store, leadership, peer id, epoch version (conf_ver is ignored for normal requests), and finally
 * every key inside the region. Returns the region error TiKV would send, or undefined.
 */
export function checkRegionRequest(
  topology: ClusterTopology,
  storeId: string,
  context: RequestContext | null | undefined,
  keys: readonly Buffer[],
): RegionError | undefined {
  const requestedStore = context?.peer?.store_id ?? '0';
  if (requestedStore !== storeId) {
    return {
      message: `store not match, requested ${requestedStore}, actual ${storeId}`,
      store_not_match: { request_store_id: requestedStore, actual_store_id: storeId },
    };
  }

  const regionId = context?.region_id ?? '0';
  const region = topology.regionById(regionId);
  const localPeer = region?.peers.find((peer) => peer.storeId === storeId);
  if (!region || !localPeer) {
    return { message: `region ${regionId} not found`, region_not_found: { region_id: regionId } };
  }

  if (region.leaderStoreId !== storeId) {
    return {
      message: `peer is not leader for region ${regionId}`,
      not_leader: { region_id: regionId, leader: topology.leaderPeer(region) },
    };
  }

  const requestedPeer = context?.peer?.id ?? '0';
  if (requestedPeer !== localPeer.id) {
    return {
      message: `mismatch peer id ${requestedPeer} != ${localPeer.id}`,
      mismatch_peer_id: { request_peer_id: requestedPeer, store_peer_id: localPeer.id },
    };
  }

  const epoch = context?.region_epoch;
  if (!epoch) return { message: 'missing epoch!' };
  if (epoch.version !== region.version.toString()) {
    return {
      message: `epoch not match for region ${regionId}: request version ${epoch.version}, current ${region.version}`,
      epoch_not_match: {
        current_regions: topology.epochSiblings(region).map((r) => topology.toWireRegion(r)),
      },
    };
  }

  const outside = keys.find((key) => !regionHasKey(region, key));
  if (outside) {
    return {
      message: `key ${outside.toString('hex')} is not in region ${regionId}`,
      key_not_in_region: {
        key: outside,
        region_id: regionId,
        start_key: region.startKey,
        end_key: region.endKey,
      },
    };
  }
  return undefined;
}
