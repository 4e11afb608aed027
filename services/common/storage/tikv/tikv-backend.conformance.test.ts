import { describeBackendConformance } from '../conformance/backend-conformance';
import { TikvBackend } from './tikv-backend';
import { startTikvTestDouble } from './test-double/tikv-test-double';

/**
 * The shared backend contract, run against TikvBackend on the protocol-level double (always) and on
 * a real cluster when `TIKV_PD_ENDPOINTS=host:port[,host:port…]` is set. The real cluster must run
 * with `storage.enable-ttl = true` for the TTL cases; the suite namespaces its keys, so a shared
 * dev cluster is fine.
 */
describeBackendConformance('tikv (test double)', async () => {
  const double = await startTikvTestDouble();
  const backend = await TikvBackend.connect({ pdEndpoints: double.pdEndpoints });
  return {
    backend,
    cleanup: async () => {
      await backend.close();
      await double.stop();
    },
  };
});

const realCluster = process.env.TIKV_PD_ENDPOINTS?.split(',')
  .map((endpoint) => endpoint.trim())
  .filter((endpoint) => endpoint.length > 0);

if (realCluster && realCluster.length > 0) {
  describeBackendConformance(`tikv (cluster ${realCluster.join(',')})`, async () => {
    const backend = await TikvBackend.connect({ pdEndpoints: realCluster });
    return { backend, cleanup: () => backend.close() };
  });
}
