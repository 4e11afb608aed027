import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** POST /v1/seeds — Add seed URLs to the frontier. */
export function createSubmitSeedsHandler(
  context: SchedulerContext,
): SchedulerHandlers['submitSeeds'] {
  return async ({ body }) => context.frontier.submitSeeds(body.seed_list);
}
