import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

/** GET /v1/operator/sampling-queue — The sampling queue, verdict counts and export rate of the sampler's operator page. */
export function createGetSamplingQueueHandler(
  context: SamplerContext,
): SamplerHandlers['getSamplingQueue'] {
  return async ({ query }) => atTheEdge(() => context.core.samplingQueueView(query.limit));
}
