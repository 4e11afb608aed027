import type { SchedulerHandlers } from '../../../generated/scheduler';
import { notImplemented } from '../../common/contract-runtime/contract-error';
import type { SchedulerContext } from '../context';

/** GET /v1/domain-candidates — Domains seen in seeds or link lists that have no rule yet (for the sampler). */
export function createListDomainCandidatesHandler(
  _context: SchedulerContext,
): SchedulerHandlers['listDomainCandidates'] {
  return async () => {
    throw notImplemented('listDomainCandidates');
  };
}
