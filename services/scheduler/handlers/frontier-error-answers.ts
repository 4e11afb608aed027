import {
  badRequest,
  conflict,
  invalidRequest,
  notFound,
  serviceUnavailable,
  type ContractError,
} from '../../common/contract-runtime/contract-error';
import {
  FetchStatusTableError,
  ForeignLeaseError,
  FrontierError,
  FrontierStoppingError,
  FrontierUnavailableError,
  IncoherentRuleError,
  ResultOutsideLeaseError,
  UnknownLeaseError,
} from '../frontier/frontier-errors';

/**
 * The scheduler's one place where the frontier's refusals become the contract's answers (status +
 * error_code, CONTRACT.md §三/§九). The frontier throws what happened; this says how it is answered.
 */
export function contractErrorOf(error: FrontierError): ContractError {
  if (error instanceof UnknownLeaseError) return notFound('lease_not_found', error.message);
  if (error instanceof ForeignLeaseError) return conflict('lease_worker_mismatch', error.message);
  if (error instanceof FetchStatusTableError) {
    return badRequest('fetch_status_mismatch', error.message);
  }
  if (error instanceof ResultOutsideLeaseError || error instanceof IncoherentRuleError) {
    return invalidRequest(error.message);
  }
  if (error instanceof FrontierUnavailableError || error instanceof FrontierStoppingError) {
    return serviceUnavailable(error.message);
  }
  // A refusal without an answer of its own is a bug in this mapping, not the caller's mistake.
  throw error;
}

/** Wraps a handler so that its frontier refusals leave as contract errors; anything else passes. */
export function answeringFrontierErrors<Input, Output>(
  handler: (input: Input) => Promise<Output>,
): (input: Input) => Promise<Output> {
  return async (input) => {
    try {
      return await handler(input);
    } catch (error) {
      throw error instanceof FrontierError ? contractErrorOf(error) : error;
    }
  };
}
