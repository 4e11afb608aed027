import type { UrlTaskDocument } from './frontier-documents';
import type { RuleSummary } from './rule-book';
import { msOfTimeText } from './time-text';
import type { LeaseTask } from './wire-types';

/** The two v2 fields of a lease task: how its URL is to be fetched. */
export type FetchPlan = Required<Pick<LeaseTask, 'render_strategy' | 'api_endpoint'>>;

const RENDER_PLAN: FetchPlan = { render_strategy: 'render', api_endpoint: null };

/**
 * How a leased URL is fetched (CONTRACT.md §七, "How v2 keeps both ⚠️ rules"): a render domain's
 * URL is rendered; an api domain's URL goes through its endpoint, except when it was never rendered
 * or its last render is `linkRenderIntervalMs` old or older — then it is rendered, so that its links
 * keep flowing (an api fetch sees none). The endpoint mapping travels with both.
 *
 * Everything it needs is in memory when a lease is answered (the rule book's summary, the url_task
 * the picker read), so choosing costs no storage read.
 */
export function fetchPlanOf(
  task: Pick<UrlTaskDocument, 'last_rendered_at'>,
  rule: Pick<RuleSummary, 'renderStrategy' | 'apiEndpoint'>,
  nowMs: number,
  linkRenderIntervalMs: number,
): FetchPlan {
  if (rule.renderStrategy !== 'api' || rule.apiEndpoint === null) return RENDER_PLAN;
  const isLinkRenderDue =
    task.last_rendered_at === null ||
    nowMs - msOfTimeText(task.last_rendered_at) >= linkRenderIntervalMs;
  return { render_strategy: isLinkRenderDue ? 'render' : 'api', api_endpoint: rule.apiEndpoint };
}
