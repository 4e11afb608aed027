import type { components } from '../../../generated/scheduler/types';

/**
 * Errors a handler throws to answer with the contract's error body ({error_code, message}).
 *
 * Handlers never touch the HTTP response; the generated router turns a ContractError into the
 * status and body the contract names, and anything else into a 500 internal_error.
 */

/**
 * Values of ErrorBody.error_code (CONTRACT.md §九, enum `error_code`), taken from the generated
 * types so that a code added to the contract is usable here after `npm run generate`, and a code
 * not in the contract does not compile.
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
