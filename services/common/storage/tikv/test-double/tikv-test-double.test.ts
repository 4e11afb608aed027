import * as grpc from '@grpc/grpc-js';
import { loadTikvProtocol } from '../protocol/load-protocol';
import { PdMethods, RequestContext, TikvRawMethods } from '../protocol/wire-types';
import { ClientPool, unaryClientPool } from '../rpc/grpc-client-pool';
import { TypedGrpcClient } from '../rpc/typed-grpc-client';
import { TikvTestDouble, startTikvTestDouble } from './tikv-test-double';

/**
 * The double's server-side checks, exercised with raw protocol calls (no TikvBackend involved), so
 * the backend tests above can trust that it answers like TiKV and PD would.
 */
describe('TiKV test double: server-side checks', () => {
  let double: TikvTestDouble;
  let pd: ClientPool<TypedGrpcClient<PdMethods>>;
  let tikv: ClientPool<TypedGrpcClient<TikvRawMethods>>;

  beforeEach(async () => {
    double = await startTikvTestDouble();
    const protocol = loadTikvProtocol();
    pd = unaryClientPool<PdMethods>(protocol.PdClient, { maxReceiveMessageBytes: 1 << 20 });
    tikv = unaryClientPool<TikvRawMethods>(protocol.TikvClient, {
      maxReceiveMessageBytes: 1 << 20,
    });
  });
  afterEach(async () => {
    pd.closeAll();
    tikv.closeAll();
    await double.stop();
  });

  const header = () => ({ cluster_id: double.clusterId });

  /** A correct context for `key`, straight from PD. */
  async function contextFor(key: Buffer): Promise<{ context: RequestContext; address: string }> {
    const answer = await pd
      .get(double.pdEndpoints[0])
      .call('GetRegion', { header: header(), region_key: key }, 1000);
    const leader = answer.leader!;
    const store = await pd
      .get(double.pdEndpoints[0])
      .call('GetStore', { header: header(), store_id: leader.store_id }, 1000);
    return {
      context: {
        region_id: answer.region!.id,
        region_epoch: answer.region!.region_epoch!,
        peer: leader,
      },
      address: store.store!.address,
    };
  }

  it('reports its cluster id and leader through GetMembers on every member', async () => {
    for (const endpoint of double.pdEndpoints) {
      const answer = await pd.get(endpoint).call('GetMembers', {}, 1000);
      expect(answer.header?.cluster_id).toBe(double.clusterId);
      expect(answer.leader?.client_urls).toEqual([`http://${double.pdEndpoints[0]}`]);
      expect(answer.members).toHaveLength(2);
    }
  });

  it('rejects a PD request with a wrong cluster id and serves region lookups only on the leader', async () => {
    const wrong = pd
      .get(double.pdEndpoints[0])
      .call('GetRegion', { header: { cluster_id: '1' }, region_key: Buffer.from('a') }, 1000);
    await expect(wrong).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION });
    const follower = pd
      .get(double.pdEndpoints[1])
      .call('GetRegion', { header: header(), region_key: Buffer.from('a') }, 1000);
    await expect(follower).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
  });

  it('answers a correctly routed RawPut/RawGet', async () => {
    const key = Buffer.from('abc');
    const { context, address } = await contextFor(key);
    const client = tikv.get(address);
    const put = await client.call(
      'RawPut',
      { context, key, value: Buffer.from('v'), for_cas: true },
      1000,
    );
    expect(put.region_error).toBeNull();
    const got = await client.call('RawGet', { context, key }, 1000);
    expect(got.value.toString()).toBe('v');
    expect(got.not_found).toBe(false);
  });

  it('returns StoreNotMatch, NotLeader, MismatchPeerId, EpochNotMatch and KeyNotInRegion like TiKV', async () => {
    const key = Buffer.from('abc');
    const { context, address } = await contextFor(key);
    const client = tikv.get(address);
    const get = (ctx: RequestContext, k = key) =>
      client.call('RawGet', { context: ctx, key: k }, 1000);

    const wrongStore = await get({ ...context, peer: { ...context.peer, store_id: '42' } });
    expect(wrongStore.region_error?.store_not_match?.actual_store_id).toBe(context.peer.store_id);

    const wrongPeer = await get({ ...context, peer: { ...context.peer, id: '42' } });
    expect(wrongPeer.region_error?.mismatch_peer_id?.store_peer_id).toBe(context.peer.id);

    const outside = await get(context, Buffer.from('zzz'));
    expect(outside.region_error?.key_not_in_region?.region_id).toBe(context.region_id);

    const { leftRegionId, rightRegionId } = double.splitRegion(Buffer.from('b'));
    const stale = await get(context);
    const current = stale.region_error?.epoch_not_match?.current_regions.map((r) => r.id);
    expect(current).toEqual([leftRegionId, rightRegionId]);

    const other = double.stores.find((s) => s.id !== context.peer.store_id)!.id;
    double.transferLeader(key, other);
    const notLeader = await get(context);
    expect(notLeader.region_error?.not_leader?.leader?.store_id).toBe(other);
    double.dropLeader(key);
    expect((await get(context)).region_error?.not_leader?.leader).toBeNull();
  });

  it('rejects a TiKV request carrying another cluster id with INVALID_ARGUMENT', async () => {
    const key = Buffer.from('abc');
    const { context, address } = await contextFor(key);
    const call = tikv
      .get(address)
      .call('RawGet', { context: { ...context, cluster_id: '5' }, key }, 1000);
    await expect(call).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
  });

  it('counts RawGetKeyTTL on a non-TTL server as the panic a real TiKV would suffer', async () => {
    const noTtl = await startTikvTestDouble({ ttlEnabled: false });
    try {
      const answer = await pd
        .get(noTtl.pdEndpoints[0])
        .call(
          'GetRegion',
          { header: { cluster_id: noTtl.clusterId }, region_key: Buffer.from('a') },
          1000,
        );
      const leader = answer.leader!;
      const address = noTtl.stores.find((s) => s.id === leader.store_id)!.address;
      const context = {
        region_id: answer.region!.id,
        region_epoch: answer.region!.region_epoch!,
        peer: leader,
      };
      await expect(
        tikv.get(address).call('RawGetKeyTTL', { context, key: Buffer.from('a') }, 1000),
      ).rejects.toMatchObject({ code: grpc.status.INTERNAL });
      expect(noTtl.stats.ttlProbesOnNonTtlServer).toBe(1);
      const put = await tikv
        .get(address)
        .call(
          'RawPut',
          { context, key: Buffer.from('a'), value: Buffer.from('v'), ttl: 5, for_cas: true },
          1000,
        );
      expect(put.error).toBe('ttl is not enabled, but get put request with ttl');
    } finally {
      await noTtl.stop();
    }
  });
});
