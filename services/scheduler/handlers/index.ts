import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';
import { createLeaseTasksHandler } from './lease-tasks';
import { createReportLeaseHandler } from './report-lease';
import { createSubmitRulesHandler } from './submit-rules';
import { createSubmitSeedsHandler } from './submit-seeds';
import { createListDomainCandidatesHandler } from './list-domain-candidates';
import { createGetFrontierSummaryHandler } from './get-frontier-summary';
import { createGetUrlTaskHandler } from './get-url-task';

/** Wires one handler per contract operation; tsc names any operation missing here. */
export function createSchedulerHandlers(context: SchedulerContext): SchedulerHandlers {
  return {
    leaseTasks: createLeaseTasksHandler(context),
    reportLease: createReportLeaseHandler(context),
    submitRules: createSubmitRulesHandler(context),
    submitSeeds: createSubmitSeedsHandler(context),
    listDomainCandidates: createListDomainCandidatesHandler(context),
    getFrontierSummary: createGetFrontierSummaryHandler(context),
    getUrlTask: createGetUrlTaskHandler(context),
  };
}
