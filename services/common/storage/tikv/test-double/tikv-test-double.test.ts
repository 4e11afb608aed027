import * as grpc from '@grpc/grpc-js';
import { RequestContext } from '../protocol/wire-types';
import { RawProtocolFixture, startRawProtocolFixture } from './raw-protocol-fixture';
import { startTikvTestDouble } from './tikv-test-double';

/**
 * The double's server-side checks, exercised with raw protocol calls (no TikvBackend involved), so
 * the backend tests above can trust that it answers like TiKV and PD would.
 */
describe('TiKV test double: server-side checks', () => {
  let fixture: RawProtocolFixture;
  beforeEach(async () => {
    fixture = await startRawProtocolFixture();
  });
  afterEach(() => fixture.close());

  const header = () => fixture.header();
  const contextFor = (key: Buffer) => fixture.contextFor(key);

  it('reports its cluster id and leader through GetMembers on every member', async () => {
    for (const endpoint of fixture.double.pdEndpoints) {
      const answer = await fixture.pd.get(endpoint).call('GetMembers', {}, 1000);
      expect(answer.header?.cluster_id).toBe(fixture.double.clusterId);
      expect(answer.leader?.client_urls).toEqual([`http://${fixture.double.pdEndpoints[0]}`]);
      expect(answer.members).toHaveLength(2);
    }
  });

  it('rejects a PD request with a wrong cluster id and serves region lookups only on the leader', async () => {
    const wrong = fixture.pd
      .get(fixture.double.pdEndpoints[0])
      .call('GetRegion', { header: { cluster_id: '1' }, region_key: Buffer.from('a') }, 1000);
    await expect(wrong).rejects.toMatchObject({ code: grpc.status.FAILED_PRECONDITION });
    const follower = fixture.pd
      .get(fixture.double.pdEndpoints[1])
      .call('GetRegion', { header: header(), region_key: Buffer.from('a') }, 1000);
    await expect(follower).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
  });

  it('answers a correctly routed RawPut/RawGet', async () => {
    const key = Buffer.from('abc');
    const { context, address } = await contextFor(key);
    const client = fixture.tikv.get(address);
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
    const client = fixture.tikv.get(address);
    const get = (ctx: RequestContext, k = key) =>
      client.call('RawGet', { context: ctx, key: k }, 1000);

    const wrongStore = await get({ ...context, peer: { ...context.peer, store_id: '42' } });
    expect(wrongStore.region_error?.store_not_match?.actual_store_id).toBe(context.peer.store_id);

    const wrongPeer = await get({ ...context, peer: { ...context.peer, id: '42' } });
    expect(wrongPeer.region_error?.mismatch_peer_id?.store_peer_id).toBe(context.peer.id);

    const outside = await get(context, Buffer.from('zzz'));
    expect(outside.region_error?.key_not_in_region?.region_id).toBe(context.region_id);

    const { leftRegionId, rightRegionId } = fixture.double.splitRegion(Buffer.from('b'));
    const stale = await get(context);
    const current = stale.region_error?.epoch_not_match?.current_regions.map((r) => r.id);
    expect(current).toEqual([leftRegionId, rightRegionId]);

    const other = fixture.double.stores.find((s) => s.id !== context.peer.store_id)!.id;
    fixture.double.transferLeader(key, other);
    const notLeader = await get(context);
    expect(notLeader.region_error?.not_leader?.leader?.store_id).toBe(other);
    fixture.double.dropLeader(key);
    expect((await get(context)).region_error?.not_leader?.leader).toBeNull();
  });

  it('rejects a TiKV request carrying another cluster id with INVALID_ARGUMENT', async () => {
    const key = Buffer.from('abc');
    const { context, address } = await contextFor(key);
    const call = fixture.tikv
      .get(address)
      .call('RawGet', { context: { ...context, cluster_id: '5' }, key }, 1000);
    await expect(call).rejects.toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
  });

  it('counts RawGetKeyTTL on a non-TTL server as the panic a real TiKV would suffer', async () => {
    const noTtl = await startTikvTestDouble({ ttlEnabled: false });
    try {
      const answer = await fixture.pd
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
        fixture.tikv.get(address).call('RawGetKeyTTL', { context, key: Buffer.from('a') }, 1000),
      ).rejects.toMatchObject({ code: grpc.status.INTERNAL });
      expect(noTtl.stats.ttlProbesOnNonTtlServer).toBe(1);
      const put = await fixture.tikv
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
