import type { SchedulerHandlers } from '../../../generated/scheduler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SchedulerContext } from '../context';

/** GET /v1/operator/frontier-summary — Queue depth by state, leases, per-domain state and recent report counts. */
export function createGetFrontierSummaryHandler(
  _context: SchedulerContext,
): SchedulerHandlers['getFrontierSummary'] {
  return async () => {
    throw notImplemented('getFrontierSummary');
  };
}
