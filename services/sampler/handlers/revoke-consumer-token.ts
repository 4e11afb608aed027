import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

/** DELETE /v1/operator/consumer-tokens/{consumer_id} — Revoke a consumer's token; its live claims are released at once. */
export function createRevokeConsumerTokenHandler(
  context: SamplerContext,
): SamplerHandlers['revokeConsumerToken'] {
  return async ({ path }) =>
    atTheEdge(async () => {
      const row = await context.core.revokeConsumerToken(path.consumer_id);
      return { consumer_id: row.consumer_id, issued_at: row.issued_at, revoked_at: row.revoked_at };
    });
}
