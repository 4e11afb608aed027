import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** POST /v1/api-endpoint-hints — Report JSON endpoints that carried a rendered page's main content (v2; caller downloader). */
export function createSubmitApiEndpointHintsHandler(
  _context: SamplerContext,
): SamplerHandlers['submitApiEndpointHints'] {
  return async () => {
    throw notImplemented('submitApiEndpointHints');
  };
}
