import type { ErrorBodyWire } from './contract-error';

/** The service answered with a contract error body (or at least an error status). */
export class ContractHttpError extends Error {
  readonly status: number;
  readonly errorCode: string;
  readonly body: Partial<ErrorBodyWire> & Record<string, unknown>;

  constructor(
    operationId: string,
    status: number,
    body: Partial<ErrorBodyWire> & Record<string, unknown>,
  ) {
    super(
      `${operationId} answered ${status} ${body.error_code ?? ''}: ${body.message ?? ''}`.trim(),
    );
    this.name = 'ContractHttpError';
    this.status = status;
    this.errorCode = typeof body.error_code === 'string' ? body.error_code : 'unknown_error';
    this.body = body;
  }
}

/** A 429: the caller backs off itself for retryAfterSeconds (CONTRACT.md §二, entry B). */
export class TooManyRequestsError extends ContractHttpError {
  readonly retryAfterSeconds: number;

  constructor(
    operationId: string,
    body: Partial<ErrorBodyWire> & Record<string, unknown>,
    retryAfterSeconds: number,
  ) {
    super(operationId, 429, body);
    this.name = 'TooManyRequestsError';
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The service could not be reached or did not answer in time, after the allowed tries. */
export class ContractTransportError extends Error {
  readonly attemptCount: number;

  constructor(operationId: string, attemptCount: number, cause: unknown) {
    super(
      `${operationId} failed after ${attemptCount} tries: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.name = 'ContractTransportError';
    this.attemptCount = attemptCount;
  }
}
