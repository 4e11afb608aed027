import type { SchedulerHandlers } from '../../../generated/scheduler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SchedulerContext } from '../context';

/** POST /v1/report — Report the results of a whole lease (idempotent by lease_id). */
export function createReportLeaseHandler(
  _context: SchedulerContext,
): SchedulerHandlers['reportLease'] {
  return async () => {
    throw notImplemented('reportLease');
  };
}
