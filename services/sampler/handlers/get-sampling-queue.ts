import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** GET /v1/operator/sampling-queue — The sampling queue, verdict counts and export rate of the sampler's operator page. */
export function createGetSamplingQueueHandler(
  _context: SamplerContext,
): SamplerHandlers['getSamplingQueue'] {
  return async () => {
    throw notImplemented('getSamplingQueue');
  };
}
