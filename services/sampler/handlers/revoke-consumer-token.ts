import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** DELETE /v1/operator/consumer-tokens/{consumer_id} — Revoke a consumer's token; its live claims are released at once. */
export function createRevokeConsumerTokenHandler(
  _context: SamplerContext,
): SamplerHandlers['revokeConsumerToken'] {
  return async () => {
    throw notImplemented('revokeConsumerToken');
  };
}
