import type { components } from '../../../generated/scheduler';

/*
 * Short names for the contract's shapes as the generated types spell them. Nothing is redefined
 * here: a contract change shows up as a type error in the code that uses these.
 */
type Schemas = components['schemas'];

export type DomainRule = Schemas['DomainRule'];
export type RenderStrategy = Schemas['RenderStrategy'];
export type Verdict = Schemas['Verdict'];
export type LeaseTask = Schemas['LeaseTask'];
export type LeaseResponse = Schemas['LeaseResponse'];
export type ReportRequest = Schemas['ReportRequest'];
export type ReportResult = Schemas['ReportResult'];
export type ReportResponse = Schemas['ReportResponse'];
export type FetchStatus = ReportResult['fetch_status'];
export type FailReason = Schemas['FailReason'];
export type HealthSignal = Schemas['HealthSignal'];
export type LinkItem = Schemas['LinkItem'];
export type DomPosition = LinkItem['dom_position'];
export type RejectReason = Schemas['RejectedSeed']['reject_reason'];
export type RejectedSeed = Schemas['RejectedSeed'];
export type SeedItem = Schemas['SeedItem'];
export type UrlState = Schemas['UrlStateCount']['url_state'];
export type DomainHealthState = Schemas['DomainFrontierRow']['domain_health_state'];
export type DomainFrontierRow = Schemas['DomainFrontierRow'];
export type DomainCandidate = Schemas['DomainCandidate'];
export type FrontierSummary = Schemas['FrontierSummary'];

export const URL_STATES: readonly UrlState[] = [
  'queued',
  'leased',
  'done',
  'failed',
  'waiting_for_rule',
  'dropped',
];

export const FETCH_STATUSES: readonly FetchStatus[] = ['done', 'empty', 'not_modified', 'failed'];

/** csr and partial are crawled; ssr and unknown belong to an external module (CONTRACT.md §三). */
export function isCrawlableVerdict(verdict: Verdict): boolean {
  return verdict === 'csr' || verdict === 'partial';
}

/**
 * The page was rendered (render_strategy render, or absent: a v1 downloader). An api result saw no
 * links and measured no health (CONTRACT.md §七): it neither feeds link intake nor domain health,
 * nor counts as the URL's last render.
 */
export function isRenderedResult(result: Pick<ReportResult, 'render_strategy'>): boolean {
  return result.render_strategy !== 'api';
}
