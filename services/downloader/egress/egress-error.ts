import type { AddressCategory } from './special-purpose-ranges';

/**
 * Every way an outbound request can fail before or while talking to the origin. The rendering
 * layer maps these onto the contract's `fail_reason`; `destination_refused` is deliberately not a
 * fail_reason: it is the caller's fault (the service answers 4xx), not the origin's.
 */
export type EgressFailureKind =
  | 'destination_refused'
  | 'invalid_url'
  | 'dns_resolution_failed'
  | 'connection_failed'
  | 'tls_failed'
  | 'timeout'
  | 'content_too_large'
  | 'too_many_redirects';

export class EgressError extends Error {
  constructor(
    readonly kind: EgressFailureKind,
    message: string,
    /** Set for `destination_refused`: what the refused address is. */
    readonly addressCategory?: AddressCategory | 'invalid_address',
  ) {
    super(message);
    this.name = 'EgressError';
  }
}

const DNS_ERROR_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

function isTlsErrorCode(code: string): boolean {
  return (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.includes('CERT') ||
    code.startsWith('UNABLE_TO_') ||
    code === 'EPROTO'
  );
}

/** Classifies a Node socket / TLS / DNS error by its `code` (unknown codes: connection_failed). */
export function egressFailureKindOf(error: unknown): EgressFailureKind {
  if (error instanceof EgressError) return error.kind;
  const code = String((error as { code?: unknown } | undefined)?.code ?? '');
  if (DNS_ERROR_CODES.has(code)) return 'dns_resolution_failed';
  if (isTlsErrorCode(code)) return 'tls_failed';
  return 'connection_failed';
}

/** Wraps any error into an EgressError, keeping an EgressError as it is. */
export function toEgressError(error: unknown): EgressError {
  if (error instanceof EgressError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new EgressError(egressFailureKindOf(error), message);
}
