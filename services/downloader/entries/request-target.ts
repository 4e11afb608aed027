import { ContractError, invalidRequest } from '../../common/contract-runtime/contract-error';
import { normalizeUrl, UrlNormalizationError } from '../../common/url/normalize-url';
import type { IntervalSource } from '../rate-limit/rate-limit-vocabulary';
import type { RefusedOutcome } from '../rendering/render-outcome';

export interface RequestTarget {
  /** Normalized (CONTRACT.md §十). */
  readonly url: string;
  /** The rate-limit domain: the normalized host without port. */
  readonly domain: string;
}

/** A scheme other than http(s) is a destination we refuse; anything unparseable is a bad request. */
export function destinationNotAllowed(message: string): ContractError {
  return new ContractError(400, 'destination_not_allowed', message);
}

/** Normalizes a caller's URL or throws the contract's 400. */
export function requestTargetOf(url: string): RequestTarget {
  try {
    const normalized = normalizeUrl(url);
    return { url: normalized, domain: new URL(normalized).hostname };
  } catch (error) {
    if (!(error instanceof UrlNormalizationError)) throw error;
    if (error.reason === 'unsupported_scheme') {
      throw destinationNotAllowed(`url: ${error.message}; only http and https are fetched`);
    }
    throw invalidRequest(`url: ${error.message}`);
  }
}

/** The 400 for a request the engine or the destination check refused. */
export function refusalError(outcome: RefusedOutcome): ContractError {
  switch (outcome.refusalReason) {
    case 'destination_refused':
    case 'unsupported_scheme':
      return destinationNotAllowed(outcome.message);
    case 'invalid_wait_selector':
      return invalidRequest(`wait_selector: ${outcome.message}`);
    default:
      return invalidRequest(`url: ${outcome.message}`);
  }
}

/** The caller's interval as is, or the global default — recorded as which one it was. */
export function intervalOf(
  callerValue: number | undefined,
  globalDefaultMs: number,
): { minIntervalMs: number; intervalSource: IntervalSource } {
  return callerValue === undefined
    ? { minIntervalMs: globalDefaultMs, intervalSource: 'global_default' }
    : { minIntervalMs: callerValue, intervalSource: 'caller_value' };
}

/** Seconds for Retry-After / retry_after_seconds: rounded up, at least 1. */
export function retryAfterSeconds(retryAfterMs: number | undefined): number {
  return Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000));
}
