import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** GET /v1/operator/consumer-tokens — External consumers and the state of their tokens (secrets are never shown). */
export function createListConsumerTokensHandler(
  _context: SamplerContext,
): SamplerHandlers['listConsumerTokens'] {
  return async () => {
    throw notImplemented('listConsumerTokens');
  };
}
