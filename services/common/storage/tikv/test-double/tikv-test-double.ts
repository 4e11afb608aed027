import { RegionError } from '../protocol/wire-types';
import { ClusterTopology, DEFAULT_CLUSTER_ID, RegionRef } from './cluster-topology';
import { DoubleRequestRecord, StoreRequestHook } from './double-request-log';
import { PdMemberServer, PdMembershipState } from './pd-member-server';
import { RawKvEngine, RawKvEngineStats } from './raw-kv-engine';
import { SharedClusterState, StoreServer } from './store-server';
import { TimestampOracle } from './timestamp-oracle';

export interface TikvTestDoubleOptions {
  /** uint64 as a decimal string; default 7153087019074699621 (> 2^53). */
  clusterId?: string;
  /** Initial region boundaries; default ["g", "p"] → three regions. */
  splitKeys?: Buffer[];
  /** Default 2. */
  storeCount?: number;
  /** Default 2 (a leader and a follower for failover tests). */
  pdMemberCount?: number;
  /** Mirrors TiKV's `storage.enable-ttl`; default true. */
  ttlEnabled?: boolean;
  /** Serve the BatchCommands stream (every real TiKV does); default true. */
  batchCommands?: boolean;
}

export interface TikvTestDouble {
  readonly clusterId: string;
  /** `127.0.0.1:port` of every PD member. */
  readonly pdEndpoints: string[];
  readonly stores: ReadonlyArray<{ id: string; address: string }>;
  /** Every request received, in order (cleared by `clearRequestLog`). */
  readonly requestLog: readonly DoubleRequestRecord[];
  readonly stats: Readonly<RawKvEngineStats>;

  regionIdOf(key: Buffer): string;
  regionLeaderStoreOf(key: Buffer): string | undefined;
  splitRegion(atKey: Buffer): { leftRegionId: string; rightRegionId: string };
  transferLeader(region: RegionRef, toStoreId: string): void;
  /** Leader lost (election running): NotLeader without leader until `transferLeader`. */
  dropLeader(region: RegionRef): void;
  /** Answer ServerIsBusy to the store's next `requestCount` requests. */
  makeStoreBusy(storeId: string, requestCount: number): void;
  /** Never answer the store's next `requestCount` requests (a hung, not a dead, store). */
  makeStoreUnresponsive(storeId: string, requestCount: number): void;
  /** Answer the given region errors, one per request, to the store's next requests. */
  injectRegionErrors(storeId: string, errors: RegionError[]): void;
  /**
   * The store's next `method` request is applied, then the store dies before answering: the
   * client cannot know whether the write happened (the ambiguous case of notes §5.5).
   */
  crashStoreAfterApplying(storeId: string, method: string): void;
  /** Stops a store's gRPC server (connection refused afterwards). */
  stopStore(storeId: string): void;
  /** Exchange the addresses of two stores: the old address now answers as the other store. */
  swapStoreAddresses(storeA: string, storeB: string): void;
  /** Stops the PD leader and elects the next running member; returns the stopped address. */
  stopPdLeader(): string;
  /** Moves the double's TTL clock forward. */
  advanceClock(seconds: number): void;
  onStoreRequest(hook: StoreRequestHook): () => void;
  clearRequestLog(): void;
  stop(): Promise<void>;
}

const DEFAULT_SPLIT_KEYS = [Buffer.from('g'), Buffer.from('p')];
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * Starts an in-process TiKV cluster stand-in on 127.0.0.1 ephemeral ports: PD members and stores
 * speaking the real wire protocol (raw KV, BatchCommands, PD's region/store lookups and timestamp
 * stream, the gRPC health service), with TiKV's routing checks and region errors, and controls to
 * split regions, move leaders, overload or stop stores and fail PD over on demand.
 */
export async function startTikvTestDouble(
  options: TikvTestDoubleOptions = {},
): Promise<TikvTestDouble> {
  let clockOffsetSeconds = 0;
  const nowMs = () => Date.now() + clockOffsetSeconds * 1000;
  const topology = new ClusterTopology(
    options.storeCount ?? 2,
    options.splitKeys ?? DEFAULT_SPLIT_KEYS,
  );
  const shared: SharedClusterState = {
    clusterId: options.clusterId ?? DEFAULT_CLUSTER_ID,
    topology,
    engine: new RawKvEngine(() => nowMs() / 1000, options.ttlEnabled ?? true),
    requestLog: [],
    hooks: new Set(),
    timestampOracle: new TimestampOracle(nowMs),
  };
  const storeServers = topology.stores.map(
    (store) => new StoreServer(shared, store.id, options.batchCommands ?? true),
  );
  const membership: PdMembershipState = { members: [], leaderIndex: 0 };
  membership.members = Array.from(
    { length: options.pdMemberCount ?? 2 },
    (_, index) => new PdMemberServer(shared, membership, index),
  );

  try {
    for (const [index, server] of storeServers.entries()) {
      topology.stores[index].address = await server.start(MAX_MESSAGE_BYTES);
    }
    for (const member of membership.members) await member.start();
  } catch (error) {
    storeServers.forEach((server) => server.stop());
    membership.members.forEach((member) => member.stop());
    throw error;
  }

  const storeServer = (storeId: string): StoreServer => {
    const server = storeServers.find((candidate) => candidate.servingStoreId === storeId);
    if (!server) throw new Error(`unknown store ${storeId}`);
    return server;
  };

  return {
    clusterId: shared.clusterId,
    pdEndpoints: membership.members.map((member) => member.address),
    stores: topology.stores,
    requestLog: shared.requestLog,
    stats: shared.engine.stats,

    regionIdOf: (key) => topology.regionForKey(key).id,
    regionLeaderStoreOf: (key) => topology.regionForKey(key).leaderStoreId,
    splitRegion(atKey) {
      const { left, right } = topology.split(atKey);
      return { leftRegionId: left.id, rightRegionId: right.id };
    },
    transferLeader: (region, toStoreId) => void topology.transferLeader(region, toStoreId),
    dropLeader: (region) => void topology.transferLeader(region, undefined),
    makeStoreBusy(storeId, requestCount) {
      storeServer(storeId).busyRemaining = requestCount;
    },
    makeStoreUnresponsive(storeId, requestCount) {
      storeServer(storeId).unresponsiveRemaining = requestCount;
    },
    injectRegionErrors(storeId, errors) {
      storeServer(storeId).injectedErrors.push(...errors);
    },
    crashStoreAfterApplying(storeId, method) {
      storeServer(storeId).crashAfterApplying = method;
    },
    stopStore: (storeId) => storeServer(storeId).stop(),
    swapStoreAddresses(storeA, storeB) {
      const serverA = storeServer(storeA);
      const serverB = storeServer(storeB);
      serverA.servingStoreId = storeB;
      serverB.servingStoreId = storeA;
      const a = topology.storeById(storeA)!;
      const b = topology.storeById(storeB)!;
      [a.address, b.address] = [b.address, a.address];
    },
    stopPdLeader() {
      const { members, leaderIndex } = membership;
      if (leaderIndex === undefined) throw new Error('no PD leader to stop');
      const stopped = members[leaderIndex];
      stopped.stop();
      const next = members.findIndex((member) => member.isRunning);
      membership.leaderIndex = next >= 0 ? next : undefined;
      return stopped.address;
    },
    advanceClock(seconds) {
      clockOffsetSeconds += seconds;
    },
    onStoreRequest(hook) {
      shared.hooks.add(hook);
      return () => shared.hooks.delete(hook);
    },
    clearRequestLog() {
      shared.requestLog.length = 0;
    },
    async stop() {
      shared.hooks.clear();
      storeServers.forEach((server) => server.stop());
      membership.members.forEach((member) => member.stop());
    },
  };
}
