import type { SamplerHandlers } from '../../../generated/sampler';
import type { SamplerContext } from '../context';
import { atTheEdge, consumerIdOf } from './edge-errors';

/** POST /v1/domain-verdict-hints — Report verdict hints for claimed domains (idempotent by claim_id + domain). */
export function createSubmitVerdictHintsHandler(
  context: SamplerContext,
): SamplerHandlers['submitVerdictHints'] {
  return async ({ body, meta }) =>
    atTheEdge(() => context.core.submitVerdictHints(consumerIdOf(meta.caller), body));
}
