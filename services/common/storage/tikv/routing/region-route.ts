import { Peer, Region, RegionEpoch } from '../protocol/wire-types';

/**
 * What the client knows about one region: its key range, epoch (echoed back so TiKV can reject
 * stale routing) and which peer to address. `leader` is mutable because NotLeader answers move it
 * without invalidating the rest; undefined means "unknown, try the peers in turn".
 */
export interface RegionRoute {
  readonly id: string;
  readonly startKey: Buffer;
  /** Empty = unbounded (+∞). */
  readonly endKey: Buffer;
  readonly epoch: RegionEpoch;
  readonly peers: readonly Peer[];
  leader: Peer | undefined;
}

export function routeFromRegion(region: Region, leader: Peer | null | undefined): RegionRoute {
  const knownLeader =
    leader && leader.id !== '0' && region.peers.some((peer) => peer.id === leader.id)
      ? leader
      : undefined;
  return {
    id: region.id,
    startKey: region.start_key,
    endKey: region.end_key,
    epoch: region.region_epoch ?? { conf_ver: '0', version: '0' },
    peers: region.peers,
    leader: knownLeader,
  };
}

export function regionContainsKey(route: RegionRoute, key: Buffer): boolean {
  return (
    Buffer.compare(route.startKey, key) <= 0 &&
    (route.endKey.length === 0 || Buffer.compare(key, route.endKey) < 0)
  );
}

/** Compares uint64 decimal strings without converting to (lossy) JS numbers. */
export function compareUint64(left: string, right: string): number {
  if (left.length !== right.length) return left.length < right.length ? -1 : 1;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The peer to address: the leader when known, otherwise rotate through voters so that a
 * NotLeader answer from one of them can teach us the leader (client-go does the same).
 */
export function targetPeer(route: RegionRoute, attempt: number): Peer | undefined {
  if (route.leader) return route.leader;
  const candidates = route.peers.filter((peer) => !peer.is_witness && (peer.role ?? 0) !== 1);
  if (candidates.length === 0) return undefined;
  return candidates[attempt % candidates.length];
}
