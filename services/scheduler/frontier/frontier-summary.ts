import type { DomainHealthMonitor } from '../health/domain-health-monitor';
import type { DomainBook } from './domain-book';
import type { FrontierActivity } from './frontier-activity';
import type { LeaseBook } from './lease-book';
import type { RuleBook } from './rule-book';
import { timeTextOf } from './time-text';
import type { UrlStateCounters } from './url-state-counters';
import { OPERATOR_WINDOW_SECONDS } from './windowed-counter';
import {
  FETCH_STATUSES,
  URL_STATES,
  type DomainFrontierRow,
  type FrontierSummary,
} from './wire-types';

const HEALTH_STATE_ORDER = { probing: 0, paused: 1, healthy: 2 } as const;

/**
 * GET /v1/operator/frontier-summary, composed from in-memory counters only: no request scans the
 * frontier. Domain rows list what needs a person's eyes first — paused and probing domains, then
 * the busiest (most in flight, then most due) — and leave out idle healthy domains.
 */
export interface FrontierSummaryDependencies {
  counters: UrlStateCounters;
  leases: LeaseBook;
  activity: FrontierActivity;
  book: DomainBook;
  rules: RuleBook;
  health: DomainHealthMonitor;
}

export class FrontierSummaryView {
  constructor(private readonly dependencies: FrontierSummaryDependencies) {}

  summarize(domainLimit: number, nowMs: number): FrontierSummary {
    const { counters, leases, activity } = this.dependencies;
    const reportCounts = activity.reportStatuses.totals(nowMs);
    return {
      generated_at: timeTextOf(nowMs),
      window_seconds: OPERATOR_WINDOW_SECONDS,
      url_state_list: URL_STATES.map((state) => ({
        url_state: state,
        url_count: counters.countOf(state),
      })),
      live_lease_count: leases.count,
      expired_lease_count: activity.expiredLeases.totals(nowMs).get('expired') ?? 0,
      report_status_list: FETCH_STATUSES.map((status) => ({
        fetch_status: status,
        result_count: reportCounts.get(status) ?? 0,
      })),
      domain_list: this.#domainRows(domainLimit),
    };
  }

  #domainRows(limit: number): DomainFrontierRow[] {
    const rows: DomainFrontierRow[] = [];
    const { book, rules, health } = this.dependencies;
    for (const schedule of book.all()) {
      const { state, pausedUntilAt } = health.stateOf(schedule.domain);
      if (state === 'healthy' && schedule.dueCount === 0 && schedule.inFlightCount === 0) continue;
      rows.push({
        domain: schedule.domain,
        verdict: rules.get(schedule.domain)?.verdict ?? null,
        due_count: schedule.dueCount,
        in_flight_count: schedule.inFlightCount,
        domain_health_state: state,
        paused_until_at: state === 'healthy' ? null : pausedUntilAt,
      });
    }
    rows.sort(
      (left, right) =>
        HEALTH_STATE_ORDER[left.domain_health_state] -
          HEALTH_STATE_ORDER[right.domain_health_state] ||
        right.in_flight_count - left.in_flight_count ||
        right.due_count - left.due_count ||
        (left.domain < right.domain ? -1 : left.domain > right.domain ? 1 : 0),
    );
    return rows.slice(0, limit);
  }
}
