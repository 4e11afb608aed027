import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** GET /v1/lease — Lease up to task_count due URLs for lease_ttl_seconds. */
export function createLeaseTasksHandler(
  context: SchedulerContext,
): SchedulerHandlers['leaseTasks'] {
  return async ({ query }) =>
    context.frontier.lease({
      workerId: query.worker_id,
      taskCount: query.task_count,
      leaseTtlSeconds: query.lease_ttl_seconds,
      waitMs: query.wait_ms,
    });
}
