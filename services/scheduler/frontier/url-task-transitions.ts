import { backoffCeiling } from '../../common/backoff/exponential-backoff';
import type { ParkReason, UrlTaskDocument } from './frontier-documents';
import type { RuleSummary } from './rule-book';
import { ceilingTimeTextOf, timeTextOf } from './time-text';
import { isRenderedResult, type FailReason, type ReportResult } from './wire-types';

/** How results move a URL on: retries, parking, re-visits (configuration, see README). */
export interface RecrawlPolicy {
  /** Failed fetches in a row before a URL is parked as failed. */
  maxAttemptCount: number;
  /** Wait before the first retry of a failed fetch; doubles per further failure. */
  retryBackoffSeconds: number;
  maxRetryBackoffSeconds: number;
  /** Leases expiring on a URL in a row before it is parked as failed. */
  maxLeaseExpiryCount: number;
  /** Re-visit interval when the rule names none. */
  defaultRevisitIntervalSeconds: number;
  /** Cap of the interval that doubles while a page answers not_modified. */
  maxRevisitIntervalSeconds: number;
}

/*
 * Every state change of a url_task is one of these pure functions, so the rules of the frontier's
 * state machine can be read (and tested) in one place. None of them touches storage.
 */

/**
 * Taken into a lease. Only the frontier's view changes: what is stored stays as it was (queued in
 * its due queue), since the lease record says which URLs it holds (see storedFormOf).
 */
export function leasedBy(task: UrlTaskDocument): UrlTaskDocument {
  return { ...task, url_state: 'leased', is_in_due_index: false };
}

/**
 * Back into its domain's queue at its old due time, so it keeps its place: a task missing from the
 * report of lease `appliedLeaseId`, or one whose lease expired.
 */
export function requeued(
  task: UrlTaskDocument,
  appliedLeaseId: string,
  nowMs: number,
): UrlTaskDocument {
  return {
    ...task,
    url_state: 'queued',
    is_in_due_index: true,
    applied_lease_id: appliedLeaseId,
    updated_at: timeTextOf(nowMs),
  };
}

/** Lease `leaseId` expired on it: re-queued, or parked once leases keep expiring on it. */
export function afterLeaseExpiry(
  task: UrlTaskDocument,
  leaseId: string,
  policy: RecrawlPolicy,
  nowMs: number,
): UrlTaskDocument {
  const expiryCount = task.lease_expiry_count + 1;
  const counted = { ...task, lease_expiry_count: expiryCount, applied_lease_id: leaseId };
  return expiryCount >= policy.maxLeaseExpiryCount
    ? parked(counted, 'lease_expiries_exhausted', task.fail_reason, nowMs)
    : requeued(counted, leaseId, nowMs);
}

export function parked(
  task: UrlTaskDocument,
  parkReason: ParkReason,
  failReason: FailReason | null,
  nowMs: number,
): UrlTaskDocument {
  return {
    ...task,
    url_state: 'failed',
    is_in_due_index: false,
    park_reason: parkReason,
    fail_reason: failReason,
    updated_at: timeTextOf(nowMs),
  };
}

export function dropped(task: UrlTaskDocument, nowMs: number): UrlTaskDocument {
  return {
    ...task,
    url_state: 'dropped',
    is_in_due_index: false,
    updated_at: timeTextOf(nowMs),
  };
}

/**
 * Into its domain's due queue at `rank` (a rule arrived, or a re-visit became due).
 * `robotsRuleVerifiedAt`: the rule whose robots.txt was just checked, if it was.
 */
export function queuedAt(
  task: UrlTaskDocument,
  rank: number,
  nowMs: number,
  robotsRuleVerifiedAt: string | null = task.robots_rule_verified_at,
): UrlTaskDocument {
  return {
    ...task,
    url_state: 'queued',
    priority_rank: rank,
    is_in_due_index: true,
    robots_rule_verified_at: robotsRuleVerifiedAt,
    updated_at: timeTextOf(nowMs),
  };
}

/** The fetch_status table (CONTRACT.md §三) applied to a leased URL. */
export function afterResult(
  task: UrlTaskDocument,
  result: ReportResult,
  rule: RuleSummary | undefined,
  policy: RecrawlPolicy,
  leaseId: string,
  nowMs: number,
): UrlTaskDocument {
  const reported: UrlTaskDocument = {
    ...task,
    applied_lease_id: leaseId,
    lease_expiry_count: 0,
    is_in_due_index: false,
    updated_at: timeTextOf(nowMs),
  };
  const baseIntervalSeconds = rule?.revisitIntervalSeconds ?? policy.defaultRevisitIntervalSeconds;
  switch (result.fetch_status) {
    case 'done':
    case 'empty':
      return fetchedAgain(reported, baseIntervalSeconds, nowMs, {
        object_id: result.object_id,
        etag: result.etag,
        last_modified_at: result.last_modified_at,
        fetched_at: result.fetched_at,
        last_rendered_at: lastRenderedAtAfter(task, result),
      });
    case 'not_modified':
      // The stored object is still current: keep it, and look again less often.
      return fetchedAgain(
        reported,
        Math.min(
          policy.maxRevisitIntervalSeconds,
          Math.max(baseIntervalSeconds, (task.revisit_interval_seconds ?? baseIntervalSeconds) * 2),
        ),
        nowMs,
        {
          object_id: task.object_id,
          etag: result.etag ?? task.etag,
          last_modified_at: result.last_modified_at ?? task.last_modified_at,
          fetched_at: result.fetched_at,
          last_rendered_at: lastRenderedAtAfter(task, result),
        },
      );
    case 'failed': {
      const attemptCount = task.attempt_count + 1;
      const failReason = result.fail_reason;
      if (failReason === 'robots_disallowed') {
        return parked(
          { ...reported, attempt_count: attemptCount },
          'robots_disallowed',
          failReason,
          nowMs,
        );
      }
      if (attemptCount >= policy.maxAttemptCount) {
        return parked(
          { ...reported, attempt_count: attemptCount },
          'attempts_exhausted',
          failReason,
          nowMs,
        );
      }
      const backoffSeconds = backoffCeiling(
        { initial: policy.retryBackoffSeconds, cap: policy.maxRetryBackoffSeconds },
        attemptCount - 1,
      );
      return {
        ...reported,
        url_state: 'queued',
        attempt_count: attemptCount,
        fail_reason: failReason,
        due_at: ceilingTimeTextOf(nowMs + backoffSeconds * 1000),
      };
    }
  }
}

/** A successful fetch (done, empty or not_modified): the object's validators, and the next visit. */
function fetchedAgain(
  reported: UrlTaskDocument,
  intervalSeconds: number,
  nowMs: number,
  fetched: Pick<
    UrlTaskDocument,
    'object_id' | 'etag' | 'last_modified_at' | 'fetched_at' | 'last_rendered_at'
  >,
): UrlTaskDocument {
  return {
    ...reported,
    ...fetched,
    url_state: 'done',
    attempt_count: 0,
    fail_reason: null,
    park_reason: null,
    revisit_interval_seconds: intervalSeconds,
    due_at: ceilingTimeTextOf(nowMs + intervalSeconds * 1000),
  };
}

/**
 * A successful rendered fetch is the URL's last render (its links were just taken); an api fetch
 * leaves the last render as it was, so the next link render comes due (CONTRACT.md §七). A failed
 * fetch never reaches here: it rendered nothing that counts.
 */
function lastRenderedAtAfter(task: UrlTaskDocument, result: ReportResult): string | null {
  return isRenderedResult(result) ? result.fetched_at : task.last_rendered_at;
}
