import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge, consumerIdOf } from './edge-errors';

/** POST /v1/domain-claims — Claim up to domain_count exported domains for claim_ttl_seconds. */
export function createClaimDomainsHandler(
  context: SamplerContext,
): SamplerHandlers['claimDomains'] {
  return async ({ body, meta }) =>
    atTheEdge(() => context.core.claimDomains(consumerIdOf(meta.caller), body));
}
