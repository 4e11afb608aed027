import { loadTikvProtocol } from '../protocol/load-protocol';
import { HealthMethods, PdMethods, RequestContext, TikvRawMethods } from '../protocol/wire-types';
import { ClientPool, unaryClientPool } from '../rpc/grpc-client-pool';
import { TypedGrpcClient } from '../rpc/typed-grpc-client';
import { TikvTestDouble, TikvTestDoubleOptions, startTikvTestDouble } from './tikv-test-double';

/** A double and plain protocol clients for it, to test the double without TikvBackend. */
export interface RawProtocolFixture {
  double: TikvTestDouble;
  pd: ClientPool<TypedGrpcClient<PdMethods>>;
  tikv: ClientPool<TypedGrpcClient<TikvRawMethods>>;
  health: ClientPool<TypedGrpcClient<HealthMethods>>;
  /** A PD request header with the double's cluster id. */
  header(): { cluster_id: string };
  /** A correct request context for the region holding `key`, and its leader's address. */
  contextFor(key: Buffer): Promise<{ context: RequestContext; address: string }>;
  close(): Promise<void>;
}

export async function startRawProtocolFixture(
  options: TikvTestDoubleOptions = {},
): Promise<RawProtocolFixture> {
  const double = await startTikvTestDouble(options);
  const protocol = loadTikvProtocol();
  const settings = { maxReceiveMessageBytes: 1 << 20 };
  const pd = unaryClientPool<PdMethods>(protocol.PdClient, settings);
  const tikv = unaryClientPool<TikvRawMethods>(protocol.TikvClient, settings);
  const health = unaryClientPool<HealthMethods>(protocol.HealthClient, settings);
  const header = () => ({ cluster_id: double.clusterId });
  return {
    double,
    pd,
    tikv,
    health,
    header,
    async contextFor(key) {
      const leaderPd = pd.get(double.pdEndpoints[0]);
      const answer = await leaderPd.call('GetRegion', { header: header(), region_key: key }, 1000);
      const leader = answer.leader!;
      const store = await leaderPd.call(
        'GetStore',
        { header: header(), store_id: leader.store_id },
        1000,
      );
      return {
        context: {
          region_id: answer.region!.id,
          region_epoch: answer.region!.region_epoch!,
          peer: leader,
        },
        address: store.store!.address,
      };
    },
    async close() {
      pd.closeAll();
      tikv.closeAll();
      health.closeAll();
      await double.stop();
    },
  };
}
