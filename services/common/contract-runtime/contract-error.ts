/**
 * Errors a handler throws to answer with the contract's error body ({error_code, message}).
 *
 * Handlers never touch the HTTP response; the generated router turns a ContractError into the
 * status and body the contract names, and anything else into a 500 internal_error.
 */

/** Values of ErrorBody.error_code (CONTRACT.md §八, enum `error_code`). */
export type ErrorCode =
  | 'invalid_request'
  | 'missing_token'
  | 'invalid_token'
  | 'wrong_token_kind'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'object_not_found'
  | 'lease_not_found'
  | 'lease_worker_mismatch'
  | 'fetch_status_mismatch'
  | 'destination_not_allowed'
  | 'domain_rate_limited'
  | 'render_failed'
  | 'claim_not_found'
  | 'claim_consumer_mismatch'
  | 'consumer_not_found'
  | 'consumer_already_exists'
  | 'internal_error'
  | 'not_implemented'
  | 'service_unavailable';

/** The wire shape of every error answer. */
export interface ErrorBodyWire {
  error_code: ErrorCode;
  message: string;
  retry_after_seconds?: number;
  fail_reason?: string;
}

export interface ContractErrorDetails {
  /** Only for 429: seconds until a retry may succeed (also sent as Retry-After). */
  retryAfterSeconds?: number;
  /** Only for 502 render_failed: the downloader's fail_reason value. */
  failReason?: string;
}

export class ContractError extends Error {
  readonly status: number;
  readonly errorCode: ErrorCode;
  readonly details: ContractErrorDetails;

  constructor(
    status: number,
    errorCode: ErrorCode,
    message: string,
    details: ContractErrorDetails = {},
  ) {
    super(message);
    this.name = 'ContractError';
    this.status = status;
    this.errorCode = errorCode;
    this.details = details;
  }

  toBody(): ErrorBodyWire {
    const body: ErrorBodyWire = { error_code: this.errorCode, message: this.message };
    if (this.details.retryAfterSeconds !== undefined) {
      body.retry_after_seconds = this.details.retryAfterSeconds;
    }
    if (this.details.failReason !== undefined) body.fail_reason = this.details.failReason;
    return body;
  }
}

export function invalidRequest(message: string): ContractError {
  return new ContractError(400, 'invalid_request', message);
}

export function notFound(errorCode: ErrorCode, message: string): ContractError {
  return new ContractError(404, errorCode, message);
}

export function conflict(errorCode: ErrorCode, message: string): ContractError {
  return new ContractError(409, errorCode, message);
}

/** What a scaffolded handler throws until a service issue fills it. */
export function notImplemented(operationId: string): ContractError {
  return new ContractError(501, 'not_implemented', `${operationId} is not implemented yet`);
}

export function serviceUnavailable(message: string): ContractError {
  return new ContractError(503, 'service_unavailable', message);
}
