import type {
  DomainRule,
  FailReason,
  HealthSignal,
  LinkItem,
  ReportResult,
} from '../frontier/wire-types';

/** A csr rule with no interval, no robots.txt; override what a test is about. */
/** A rule's fields without the verdict/undetermined_reason pairing (DomainRule is a union). */
export type DomainRuleFields = { [Field in keyof DomainRule]: DomainRule[Field] };

/** A csr rule for `domain`; tests may override any field, breaking the rule on purpose. */
export function ruleFor(domain: string, overrides: Partial<DomainRuleFields> = {}): DomainRule {
  const rule: DomainRuleFields = {
    domain,
    verdict: 'csr',
    undetermined_reason: null,
    min_interval_ms: 0,
    wait_selector: '#content',
    priority_rank: 10,
    robots_txt: null,
    verified_at: '2026-08-15T06:00:00Z',
    revisit_interval_seconds: null,
    ...overrides,
  };
  return rule as DomainRule;
}

export function healthySignal(overrides: Partial<HealthSignal> = {}): HealthSignal {
  return {
    xhr_total_count: 10,
    xhr_error_count: 0,
    xhr_throttled_count: 0,
    xhr_denied_count: 0,
    has_console_error: false,
    redirect_target_hash: '0123456789abcdef0123456789abcdef',
    ...overrides,
  };
}

export function link(url: string, overrides: Partial<LinkItem> = {}): LinkItem {
  return { url, rel: '', dom_position: 'main', anchor_text: 'a link', ...overrides };
}

/**
 * A report result's fields without the fetch_status table's pairing (ReportResult is a union of
 * its variants): what a test needs to build the deliberately broken results it sends.
 */
export type ReportResultFields = { [Field in keyof ReportResult]: ReportResult[Field] };

/** A done result as the downloader reports it (object, statistics, signal and links present). */
export function doneResult(
  task: { url: string; url_hash: string },
  overrides: Partial<ReportResultFields> = {},
): ReportResult {
  const linkList = overrides.link_list ?? [];
  const result: ReportResultFields = {
    url_hash: task.url_hash,
    url: task.url,
    fetch_status: 'done',
    fail_reason: null,
    object_id: 'abcdefabcdefabcdefabcdefabcdefab',
    statistics: {
      render_duration_ms: 900,
      html_byte_count: 4096,
      text_character_count: 1200,
      link_count: linkList.length,
    },
    health_signal: healthySignal(),
    link_list: linkList,
    etag: '"v1"',
    last_modified_at: '2026-08-15T06:30:00Z',
    fetched_at: '2026-08-15T07:00:00Z',
    ...overrides,
  };
  return result as ReportResult;
}

/** A failed result: the four rendered fields null, fail_reason set. */
export function failedResult(
  task: { url: string; url_hash: string },
  failReason: FailReason,
): ReportResult {
  return {
    url_hash: task.url_hash,
    url: task.url,
    fetch_status: 'failed',
    fail_reason: failReason,
    object_id: null,
    statistics: null,
    health_signal: null,
    link_list: null,
    etag: null,
    last_modified_at: null,
    fetched_at: '2026-08-15T07:00:00Z',
  };
}

export function notModifiedResult(task: { url: string; url_hash: string }): ReportResult {
  return {
    ...failedResult(task, 'http_server_error'),
    fetch_status: 'not_modified',
    fail_reason: null,
  } as ReportResult;
}
