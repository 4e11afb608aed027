import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

/** GET /v1/operator/domain-claims — The claims table of the sampler's operator page (seed 004). */
export function createListDomainClaimsHandler(
  context: SamplerContext,
): SamplerHandlers['listDomainClaims'] {
  return async ({ query }) => atTheEdge(() => context.core.domainClaimsView(query.limit));
}
