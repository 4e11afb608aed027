import type { SchedulerHandlers } from '../../../generated/scheduler';
import type { SchedulerContext } from '../context';
import { answeringFrontierErrors } from './frontier-error-answers';
import { createLeaseTasksHandler } from './lease-tasks';
import { createReportLeaseHandler } from './report-lease';
import { createSubmitRulesHandler } from './submit-rules';
import { createSubmitSeedsHandler } from './submit-seeds';
import { createListDomainCandidatesHandler } from './list-domain-candidates';
import { createGetFrontierSummaryHandler } from './get-frontier-summary';
import { createGetUrlTaskHandler } from './get-url-task';

/**
 * Wires one handler per contract operation; tsc names any operation missing here. Every handler
 * answers the frontier's refusals through frontier-error-answers.ts.
 */
export function createSchedulerHandlers(context: SchedulerContext): SchedulerHandlers {
  return {
    leaseTasks: answeringFrontierErrors(createLeaseTasksHandler(context)),
    reportLease: answeringFrontierErrors(createReportLeaseHandler(context)),
    submitRules: answeringFrontierErrors(createSubmitRulesHandler(context)),
    submitSeeds: answeringFrontierErrors(createSubmitSeedsHandler(context)),
    listDomainCandidates: answeringFrontierErrors(createListDomainCandidatesHandler(context)),
    getFrontierSummary: answeringFrontierErrors(createGetFrontierSummaryHandler(context)),
    getUrlTask: answeringFrontierErrors(createGetUrlTaskHandler(context)),
  };
}
