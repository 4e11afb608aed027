import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';

/** GET /v1/domain-candidates — Domains seen in seeds or link lists that have no rule yet (for the sampler). */
export function createListDomainCandidatesHandler(
  context: SchedulerContext,
): SchedulerHandlers['listDomainCandidates'] {
  return async ({ query }) => ({
    domain_list: await context.frontier.listDomainCandidates(query.limit),
  });
}
