import * as grpc from '@grpc/grpc-js';

export function isServiceError(error: unknown): error is grpc.ServiceError {
  return error instanceof Error && typeof (error as Partial<grpc.ServiceError>).code === 'number';
}

/**
 * Transport-level failures worth retrying on another channel / after re-routing: the peer is down,
 * restarting, unreachable, too slow, or reset the stream.
 */
const TRANSIENT_CODES: ReadonlySet<number> = new Set([
  grpc.status.UNAVAILABLE,
  grpc.status.DEADLINE_EXCEEDED,
  grpc.status.INTERNAL,
  grpc.status.CANCELLED,
]);

export function isTransientTransportError(error: grpc.ServiceError): boolean {
  return TRANSIENT_CODES.has(error.code);
}

/**
 * True only when grpc-js reports that no connection could be made, i.e. the request bytes never
 * left this process. Used to decide whether a non-idempotent request (CAS) may be re-sent.
 */
export function wasNeverSent(error: grpc.ServiceError): boolean {
  return (
    error.code === grpc.status.UNAVAILABLE &&
    /No connection established|ECONNREFUSED/.test(error.details ?? error.message)
  );
}

export function describeServiceError(error: grpc.ServiceError): string {
  const codeName = grpc.status[error.code] ?? String(error.code);
  return `gRPC ${codeName}: ${error.details || error.message}`;
}
