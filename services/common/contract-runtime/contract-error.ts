import type { components } from '../../../generated/components/types';

/**
 * Errors a handler throws to answer with the contract's error body ({error_code, message}).
 *
 * Handlers never touch the HTTP response; the generated router turns a ContractError into the
 * status and body the contract names, and anything else into a 500 internal_error.
 */

/**
 * Values of ErrorBody.error_code (CONTRACT.md §九, enum `error_code`), taken from the types
 * generated from the shared components (openapi/components.yaml), so that a code added to the
 * contract is usable here after `npm run generate`, and a code not in the contract does not compile.
 */
export type ErrorCode = components['schemas']['ErrorBody']['error_code'];

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

/*
 * Every ContractError is built by one of these factories: the status and the error_code that goes
 * with it are decided here once, not at each place that refuses a request.
 */

/** 400 with a specific code (e.g. fetch_status_mismatch); `invalidRequest` for the general one. */
export function badRequest(errorCode: ErrorCode, message: string): ContractError {
  return new ContractError(400, errorCode, message);
}

export function invalidRequest(message: string): ContractError {
  return badRequest('invalid_request', message);
}

/** 401: the bearer token is missing or unknown. */
export function unauthorized(
  errorCode: 'missing_token' | 'invalid_token',
  message: string,
): ContractError {
  return new ContractError(401, errorCode, message);
}

/** 403: a valid token of a kind the operation does not accept. */
export function wrongTokenKind(message: string): ContractError {
  return new ContractError(403, 'wrong_token_kind', message);
}

export function payloadTooLarge(message: string): ContractError {
  return new ContractError(413, 'payload_too_large', message);
}

/** 500: a fault of the service itself. */
export function internalError(message: string): ContractError {
  return new ContractError(500, 'internal_error', message);
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
