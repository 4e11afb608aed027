import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

const DEFAULT_LIMIT = 100;

/** GET /v1/operator/domain-claims — The claims table of the sampler's operator page (seed 004). */
export function createListDomainClaimsHandler(
  context: SamplerContext,
): SamplerHandlers['listDomainClaims'] {
  return async ({ query }) =>
    atTheEdge(() => context.core.domainClaimsView(query.limit ?? DEFAULT_LIMIT));
}
