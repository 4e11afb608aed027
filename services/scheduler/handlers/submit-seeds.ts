import type { SchedulerHandlers } from '../../../generated/scheduler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SchedulerContext } from '../context';

/** POST /v1/seeds — Add seed URLs to the frontier. */
export function createSubmitSeedsHandler(
  _context: SchedulerContext,
): SchedulerHandlers['submitSeeds'] {
  return async () => {
    throw notImplemented('submitSeeds');
  };
}
