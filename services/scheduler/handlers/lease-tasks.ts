import type { SchedulerHandlers } from '../../../generated/scheduler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SchedulerContext } from '../context';

/** GET /v1/lease — Lease up to task_count due URLs for lease_ttl_seconds. */
export function createLeaseTasksHandler(
  _context: SchedulerContext,
): SchedulerHandlers['leaseTasks'] {
  return async () => {
    throw notImplemented('leaseTasks');
  };
}
