import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

/** POST /v1/api-endpoint-hints — Report JSON endpoints that carried a rendered page's main content (v2; caller downloader). */
export function createSubmitApiEndpointHintsHandler(
  context: SamplerContext,
): SamplerHandlers['submitApiEndpointHints'] {
  return async ({ body }) => atTheEdge(() => context.core.submitApiEndpointHints(body));
}
