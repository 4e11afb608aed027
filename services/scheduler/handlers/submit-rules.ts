import type { SchedulerHandlers } from '../../../generated/scheduler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SchedulerContext } from '../context';

/** POST /v1/rules — Store domain rules as the read-only replica of the sampler's (idempotent). */
export function createSubmitRulesHandler(
  _context: SchedulerContext,
): SchedulerHandlers['submitRules'] {
  return async () => {
    throw notImplemented('submitRules');
  };
}
