import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';
import { contractFieldsOf } from './contract-fields';

/** POST /v1/report — Report the results of a whole lease (idempotent by lease_id). */
export function createReportLeaseHandler(
  context: SchedulerContext,
): SchedulerHandlers['reportLease'] {
  return async ({ body }) => context.frontier.report(contractFieldsOf.reportRequest(body));
}
