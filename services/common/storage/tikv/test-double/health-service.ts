import * as grpc from '@grpc/grpc-js';
import { HEALTH_STATUS, HealthCheckRequest, HealthCheckResponse } from '../protocol/wire-types';

/**
 * The standard gRPC health service as TiKV and PD serve it: the whole server (service name "")
 * and each named service report SERVING while the process runs. Check on an unknown name answers
 * NOT_FOUND and Watch reports SERVICE_UNKNOWN, as the protocol prescribes.
 *
 * Why the double needs it: client-go marks a store unreachable after one transport error and asks
 * `Health/Check` every second until it hears SERVING; without this service it never uses the store
 * again, even after the store is back.
 */
export function healthServiceHandlers(
  serviceNames: readonly string[],
  onCall: (method: 'Check' | 'Watch') => void,
): grpc.UntypedServiceImplementation {
  const known = new Set(['', ...serviceNames]);
  return {
    Check(
      call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
      callback: grpc.sendUnaryData<HealthCheckResponse>,
    ) {
      onCall('Check');
      if (!known.has(call.request.service)) {
        callback({
          code: grpc.status.NOT_FOUND,
          details: `unknown service ${call.request.service}`,
        });
        return;
      }
      callback(null, { status: HEALTH_STATUS.SERVING });
    },
    // The status never changes while the server runs, so Watch sends it once and stays open
    // until the client cancels or the server stops.
    Watch(call: grpc.ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) {
      onCall('Watch');
      const status = known.has(call.request.service)
        ? HEALTH_STATUS.SERVING
        : HEALTH_STATUS.SERVICE_UNKNOWN;
      call.write({ status });
    },
  };
}
