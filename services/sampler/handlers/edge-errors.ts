import {
  ContractError,
  conflict,
  invalidRequest,
  notFound,
} from '../../common/contract-runtime/contract-error';
import { InvalidApiEndpointHintError } from '../api-hints/api-hint-errors';
import {
  ClaimConsumerMismatchError,
  ClaimNotFoundError,
  InvalidHintError,
} from '../claims/claim-errors';
import { ConsumerAlreadyExistsError, ConsumerNotFoundError } from '../consumers/consumer-errors';

/**
 * The one place where the sampler's domain errors become the contract's answers (CONTRACT.md §八,
 * error codes per endpoint). Anything else passes through: a ContractError as it is, an unexpected
 * error to the router's 500.
 */
export function toContractError(error: unknown): unknown {
  if (error instanceof ContractError) return error;
  if (error instanceof ClaimNotFoundError) return notFound('claim_not_found', error.message);
  if (error instanceof ClaimConsumerMismatchError) {
    return conflict('claim_consumer_mismatch', error.message);
  }
  if (error instanceof InvalidHintError || error instanceof InvalidApiEndpointHintError) {
    return invalidRequest(error.message);
  }
  if (error instanceof ConsumerAlreadyExistsError) {
    return conflict('consumer_already_exists', error.message);
  }
  if (error instanceof ConsumerNotFoundError) return notFound('consumer_not_found', error.message);
  return error;
}

/** Runs a handler body, answering domain errors with their contract status and error_code. */
export async function atTheEdge<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toContractError(error);
  }
}

/** The consumer an export call comes from; the router admitted only a consumer token. */
export function consumerIdOf(caller: { consumerId?: string } | null): string {
  if (caller?.consumerId === undefined) {
    throw new ContractError(403, 'wrong_token_kind', 'this operation needs a consumer token');
  }
  return caller.consumerId;
}
