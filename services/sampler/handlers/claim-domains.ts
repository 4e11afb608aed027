import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** POST /v1/domain-claims — Claim up to domain_count exported domains for claim_ttl_seconds. */
export function createClaimDomainsHandler(
  _context: SamplerContext,
): SamplerHandlers['claimDomains'] {
  return async () => {
    throw notImplemented('claimDomains');
  };
}
