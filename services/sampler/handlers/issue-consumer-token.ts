import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

/** POST /v1/operator/consumer-tokens — Issue a token for a new external consumer (shown once). */
export function createIssueConsumerTokenHandler(
  context: SamplerContext,
): SamplerHandlers['issueConsumerToken'] {
  return async ({ body }) =>
    atTheEdge(async () => {
      const issued = await context.core.issueConsumerToken(body.consumer_id);
      return {
        consumer_id: issued.consumerId,
        consumer_token: issued.consumerToken,
        issued_at: issued.issuedAt,
      };
    });
}
