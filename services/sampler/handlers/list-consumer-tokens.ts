import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge } from './edge-errors';

/** GET /v1/operator/consumer-tokens — External consumers and the state of their tokens (secrets are never shown). */
export function createListConsumerTokensHandler(
  context: SamplerContext,
): SamplerHandlers['listConsumerTokens'] {
  return async () =>
    atTheEdge(async () => ({
      consumer_list: (await context.core.listConsumerTokens()).map((row) => ({
        consumer_id: row.consumer_id,
        issued_at: row.issued_at,
        revoked_at: row.revoked_at,
      })),
    }));
}
