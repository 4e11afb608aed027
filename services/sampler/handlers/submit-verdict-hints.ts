import type { SamplerHandlers } from '../../../generated/sampler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SamplerContext } from '../context';

/** POST /v1/domain-verdict-hints — Report verdict hints for claimed domains (idempotent by claim_id + domain). */
export function createSubmitVerdictHintsHandler(
  _context: SamplerContext,
): SamplerHandlers['submitVerdictHints'] {
  return async () => {
    throw notImplemented('submitVerdictHints');
  };
}
