import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** POST /v1/report — Report the results of a whole lease (idempotent by lease_id). */
export function createReportLeaseHandler(
  context: SchedulerContext,
): SchedulerHandlers['reportLease'] {
  return async ({ body }) => context.frontier.report(body);
}
