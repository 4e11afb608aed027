import { Peer, Region } from '../protocol/wire-types';

/**
 * Ids deliberately above 2^53 (and region/peer ids above 2^63): a client that lets any id pass
 * through a JS number loses precision and then fails the double's exact-match checks.
 */
export const DEFAULT_CLUSTER_ID = '7153087019074699621';
const FIRST_STORE_ID = 9_007_199_254_740_993n; // 2^53 + 1: not representable as a double
const FIRST_REGION_OR_PEER_ID = 18_446_744_073_709_550_001n; // near 2^64: exercises "unsigned"

export interface DoubleStore {
  id: string;
  /** 127.0.0.1:port once the store's server is bound. */
  address: string;
}

export interface DoublePeer {
  id: string;
  storeId: string;
}

export interface DoubleRegion {
  id: string;
  startKey: Buffer;
  /** Empty = unbounded. */
  endKey: Buffer;
  confVer: bigint;
  version: bigint;
  peers: DoublePeer[];
  /** undefined while "electing": requests get NotLeader without a leader. */
  leaderStoreId: string | undefined;
  /** Region this one was split from, to report siblings in EpochNotMatch like TiKV does. */
  splitFrom?: string;
}

/** A region is addressed either by id or by a key it contains. */
export type RegionRef = string | Buffer;

/** The simulated cluster layout: stores, regions (sorted by start key), leaders and splits. */
export class ClusterTopology {
  readonly stores: DoubleStore[];
  private regions: DoubleRegion[] = [];
  private nextId = FIRST_REGION_OR_PEER_ID;

  constructor(storeCount: number, splitKeys: readonly Buffer[]) {
    this.stores = Array.from({ length: storeCount }, (_, index) => ({
      id: (FIRST_STORE_ID + BigInt(index * 2)).toString(),
      address: '',
    }));
    const boundaries = [...splitKeys].sort(Buffer.compare);
    const starts = [Buffer.alloc(0), ...boundaries];
    this.regions = starts.map((startKey, index) => ({
      id: this.allocateId(),
      startKey,
      endKey: boundaries[index] ?? Buffer.alloc(0),
      confVer: 1n,
      version: 1n,
      peers: this.stores.map((store) => ({ id: this.allocateId(), storeId: store.id })),
      // Alternate leaders so that a multi-region batch really spans both stores.
      leaderStoreId: this.stores[index % this.stores.length].id,
    }));
  }

  allRegions(): readonly DoubleRegion[] {
    return this.regions;
  }

  regionForKey(key: Buffer): DoubleRegion {
    const region = this.regions.find((candidate) => regionHasKey(candidate, key));
    if (!region) throw new Error(`no region holds key ${key.toString('hex')}`);
    return region;
  }

  regionById(id: string): DoubleRegion | undefined {
    return this.regions.find((region) => region.id === id);
  }

  resolve(ref: RegionRef): DoubleRegion {
    const region = typeof ref === 'string' ? this.regionById(ref) : this.regionForKey(ref);
    if (!region) throw new Error(`unknown region ${String(ref)}`);
    return region;
  }

  storeById(id: string): DoubleStore | undefined {
    return this.stores.find((store) => store.id === id);
  }

  /** Splits the region holding `atKey` into [start, atKey) and [atKey, end); both get version + 1. */
  split(atKey: Buffer): { left: DoubleRegion; right: DoubleRegion } {
    const left = this.regionForKey(atKey);
    if (left.startKey.equals(atKey)) throw new Error('split key is already a region boundary');
    const right: DoubleRegion = {
      id: this.allocateId(),
      startKey: Buffer.from(atKey),
      endKey: left.endKey,
      confVer: left.confVer,
      version: left.version + 1n,
      peers: left.peers.map((peer) => ({ id: this.allocateId(), storeId: peer.storeId })),
      leaderStoreId: left.leaderStoreId,
      splitFrom: left.id,
    };
    left.endKey = Buffer.from(atKey);
    left.version += 1n;
    this.regions.splice(this.regions.indexOf(left) + 1, 0, right);
    return { left, right };
  }

  /** Leader transfer keeps the epoch (TiKV does not bump it), so stale routes get NotLeader. */
  transferLeader(ref: RegionRef, toStoreId: string | undefined): DoubleRegion {
    const region = this.resolve(ref);
    if (toStoreId !== undefined && !region.peers.some((peer) => peer.storeId === toStoreId)) {
      throw new Error(`region ${region.id} has no peer on store ${toStoreId}`);
    }
    region.leaderStoreId = toStoreId;
    return region;
  }

  /** Regions reported in EpochNotMatch: the current region and the ones split off it. */
  epochSiblings(region: DoubleRegion): DoubleRegion[] {
    return [region, ...this.regions.filter((other) => other.splitFrom === region.id)];
  }

  toWireRegion(region: DoubleRegion): Region {
    return {
      id: region.id,
      start_key: region.startKey,
      end_key: region.endKey,
      region_epoch: { conf_ver: region.confVer.toString(), version: region.version.toString() },
      peers: region.peers.map(toWirePeer),
    };
  }

  leaderPeer(region: DoubleRegion): Peer | null {
    const leader = region.peers.find((peer) => peer.storeId === region.leaderStoreId);
    return leader ? toWirePeer(leader) : null;
  }

  private allocateId(): string {
    const id = this.nextId;
    this.nextId += 1n;
    return id.toString();
  }
}

export function regionHasKey(region: DoubleRegion, key: Buffer): boolean {
  return (
    Buffer.compare(region.startKey, key) <= 0 &&
    (region.endKey.length === 0 || Buffer.compare(key, region.endKey) < 0)
  );
}

function toWirePeer(peer: DoublePeer): Peer {
  return { id: peer.id, store_id: peer.storeId, role: 0 };
}
