import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** GET /v1/operator/frontier-summary — Queue depth by state, leases, per-domain state and recent report counts. */
export function createGetFrontierSummaryHandler(
  context: SchedulerContext,
): SchedulerHandlers['getFrontierSummary'] {
  return async ({ query }) => context.frontier.summarize(query.limit);
}
