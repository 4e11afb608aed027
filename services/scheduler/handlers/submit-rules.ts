import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** POST /v1/rules — Store domain rules as the read-only replica of the sampler's (idempotent). */
export function createSubmitRulesHandler(
  context: SchedulerContext,
): SchedulerHandlers['submitRules'] {
  return async ({ body }) => context.frontier.submitRules(body.rule_list);
}
