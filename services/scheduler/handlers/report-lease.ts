import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** POST /v1/report — Report the results of a whole lease (idempotent by lease_id). */
export function createReportLeaseHandler(
  context: SchedulerContext,
): SchedulerHandlers['reportLease'] {
  return async (input) => context.frontier.report(input.body, preparedLinksOf(input));
}

/** The links the HTTP thread prepared (scheduler-http-edge.ts), when it served the report. */
function preparedLinksOf(input: object): string | undefined {
  const { preparedOnThread } = input as { preparedOnThread?: unknown };
  return typeof preparedOnThread === 'string' ? preparedOnThread : undefined;
}
