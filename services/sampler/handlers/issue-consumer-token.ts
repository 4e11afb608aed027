import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** POST /v1/operator/consumer-tokens — Issue a token for a new external consumer (shown once). */
export function createIssueConsumerTokenHandler(
  _context: SamplerContext,
): SamplerHandlers['issueConsumerToken'] {
  return async () => {
    throw notImplemented('issueConsumerToken');
  };
}
