import type { components } from '../../../generated/scheduler';
import type { OriginFetchResult } from '../fetching/origin-gateway';
import { formatContractTime } from '../rendering/contract-time';
import type { FailReason } from '../rendering/render-outcome';

export type LeaseTask = components['schemas']['LeaseTask'];
export type ReportResult = components['schemas']['ReportResult'];
type RenderStrategy = components['schemas']['RenderStrategy'];

/** The validators a failed task keeps: the ones the task came with, so a failure wipes nothing. */
function failedResult(task: LeaseTask, failReason: FailReason, fetchedAt: string): ReportResult {
  return {
    url_hash: task.url_hash,
    url: task.url,
    fetch_status: 'failed',
    fail_reason: failReason,
    object_id: null,
    statistics: null,
    health_signal: null,
    link_list: null,
    etag: task.etag,
    last_modified_at: task.last_modified_at,
    fetched_at: fetchedAt,
  };
}

/**
 * One task's outcome as the scheduler wants it (CONTRACT.md §三, the fetch_status table), or
 * undefined when the task was not attempted for a reason of ours — then it is left out of the
 * report and the scheduler re-queues it at once, with no penalty:
 *  - held back by an interval, the in-flight caps or the brake past the lease's deadline;
 *  - shutting down.
 * Held back by politeness backoff or a pause, it is reported failed with the origin error behind
 * the hold: the origin's own failures are what the scheduler should back off on.
 */
export function reportResultOf(
  task: LeaseTask,
  result: OriginFetchResult,
  renderStrategy: RenderStrategy = 'render',
): ReportResult | undefined {
  const base = resultWithoutStrategyOf(task, result, renderStrategy);
  return base === undefined ? undefined : { ...base, render_strategy: renderStrategy };
}

function resultWithoutStrategyOf(
  task: LeaseTask,
  result: OriginFetchResult,
  renderStrategy: RenderStrategy,
): ReportResult | undefined {
  const now = formatContractTime(new Date());
  switch (result.kind) {
    case 'held_back': {
      const { holdReason, lastFailReason } = result.decision;
      if (holdReason === 'backing_off' || holdReason === 'paused') {
        return failedResult(task, lastFailReason ?? 'http_server_error', now);
      }
      return undefined;
    }
    case 'robots_disallowed':
      return failedResult(task, 'robots_disallowed', now);
    case 'refused':
      // The scheduler leased a URL we may not contact; it retries a few times, then parks it.
      return failedResult(task, 'connection_failed', now);
    case 'fetched':
      break;
  }
  const { outcome } = result;
  switch (outcome.kind) {
    case 'page': {
      const { page, statistics } = outcome;
      // done and empty must name a stored object (CONTRACT.md §三). Without one (not the case
      // today: a failed store throws before) the result is left out and the scheduler re-queues
      // the URL at once — reported as done without an object, the whole report would be refused.
      if (result.pageObject === undefined) return undefined;
      return {
        url_hash: task.url_hash,
        url: task.url,
        fetch_status: page.fetch_status,
        fail_reason: null,
        object_id: result.pageObject.object_id,
        statistics,
        health_signal: page.health_signal,
        link_list: page.link_list,
        // An api fetch's validators are the endpoint's; the URL keeps the page's (the next
        // render's conditional request must carry those).
        ...(renderStrategy === 'api'
          ? { etag: task.etag, last_modified_at: task.last_modified_at }
          : { etag: page.etag, last_modified_at: page.last_modified_at }),
        fetched_at: page.fetched_at,
      };
    }
    case 'not_modified':
      return {
        url_hash: task.url_hash,
        url: task.url,
        fetch_status: 'not_modified',
        fail_reason: null,
        object_id: null,
        statistics: null,
        health_signal: null,
        link_list: null,
        etag: outcome.etag,
        last_modified_at: outcome.lastModifiedAt,
        fetched_at: outcome.fetchedAt,
      };
    case 'failed':
      return failedResult(task, outcome.failReason, outcome.fetchedAt);
    case 'refused':
      return failedResult(task, 'connection_failed', now);
  }
}
