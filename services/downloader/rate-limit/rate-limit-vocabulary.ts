import type { components } from '../../../generated/downloader';

/** The contract's enums of the rate-limit layer (CONTRACT.md §九), typed from the generated schema. */
export type EntryName = components['schemas']['EntryOverLimitRow']['entry_name'];
export type OverLimitBehavior = components['schemas']['EntryOverLimitRow']['over_limit_behavior'];
export type IntervalSource = components['schemas']['DomainRuntimeRow']['interval_source'];
export type RateLimitState = components['schemas']['DomainRuntimeRow']['rate_limit_state'];

export const ENTRY_NAMES: readonly EntryName[] = [
  'lease_loop',
  'render_endpoint',
  'probe_endpoint',
];

/** Each entry's fixed answer to "over the limit" (CONTRACT.md §二, seed 001). */
export const OVER_LIMIT_BEHAVIOR_OF: Readonly<Record<EntryName, OverLimitBehavior>> = {
  lease_loop: 'delay_execution',
  render_endpoint: 'reject_with_retry_after',
  probe_endpoint: 'answer_origin_not_reached',
};

/**
 * Why a request was held back. The first four are the domain's own limits; `concurrency` is the
 * global max_concurrent_count brake; `stopping` is a shutdown in progress.
 */
export type HoldReason =
  'interval' | 'domain_in_flight' | 'backing_off' | 'paused' | 'concurrency' | 'stopping';
