import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** Contract defaults (the router fills them in; repeated here for the type). */
const DEFAULT_TASK_COUNT = 50;
const DEFAULT_LEASE_TTL_SECONDS = 120;
const DEFAULT_WAIT_MS = 0;

/** GET /v1/lease — Lease up to task_count due URLs for lease_ttl_seconds. */
export function createLeaseTasksHandler(
  context: SchedulerContext,
): SchedulerHandlers['leaseTasks'] {
  return async ({ query }) =>
    context.frontier.lease({
      workerId: query.worker_id,
      taskCount: query.task_count ?? DEFAULT_TASK_COUNT,
      leaseTtlSeconds: query.lease_ttl_seconds ?? DEFAULT_LEASE_TTL_SECONDS,
      waitMs: query.wait_ms ?? DEFAULT_WAIT_MS,
    });
}
