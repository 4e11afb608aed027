import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** GET /v1/operator/domain-claims — The claims table of the sampler's operator page (seed 004). */
export function createListDomainClaimsHandler(
  _context: SamplerContext,
): SamplerHandlers['listDomainClaims'] {
  return async () => {
    throw notImplemented('listDomainClaims');
  };
}
