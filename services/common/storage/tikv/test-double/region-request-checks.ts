import { RegionError, RequestContext } from '../protocol/wire-types';
import { ClusterTopology, DoubleRegion, regionHasKey } from './cluster-topology';

/** What a request touches, for the region checks. */
export interface RequestScope {
  /** Keys that must lie inside the region (for a scan or a range: its start). */
  keys: readonly Buffer[];
  /**
   * The exclusive end of a range write (RawDeleteRange): it must lie after the start and must not
   * pass the region's end; empty means unbounded, which only the last region accepts.
   */
  rangeEnd?: Buffer;
}

/**
 * TiKV's server-side routing checks, in TiKV's order (notes §3): store id, region present on the
 * store, leadership, peer id, epoch version (conf_ver is ignored for normal requests), and finally
 * the request's keys (and range end) inside the region. Returns the region error TiKV would send,
 * or undefined.
 */
export function checkRegionRequest(
  topology: ClusterTopology,
  storeId: string,
  context: RequestContext | null | undefined,
  scope: RequestScope,
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

  const { keys, rangeEnd } = scope;
  if (rangeEnd !== undefined && rangeEnd.length > 0 && Buffer.compare(keys[0], rangeEnd) >= 0) {
    // TiKV refuses this while applying the command, as an error that carries only a message.
    return {
      message: `invalid delete range command, start_key: ${keys[0].toString('hex')}, end_key: ${rangeEnd.toString('hex')}`,
    };
  }
  const outside = keys.find((key) => !regionHasKey(region, key));
  if (outside) return keyNotInRegion(outside, region);
  if (rangeEnd !== undefined && !rangeEndFits(rangeEnd, region.endKey)) {
    return keyNotInRegion(rangeEnd, region);
  }
  return undefined;
}

function rangeEndFits(rangeEnd: Buffer, regionEnd: Buffer): boolean {
  if (regionEnd.length === 0) return true;
  return rangeEnd.length > 0 && Buffer.compare(rangeEnd, regionEnd) <= 0;
}

function keyNotInRegion(key: Buffer, region: DoubleRegion): RegionError {
  return {
    message: `key ${key.toString('hex')} is not in region ${region.id}`,
    key_not_in_region: {
      key,
      region_id: region.id,
      start_key: region.startKey,
      end_key: region.endKey,
    },
  };
}
