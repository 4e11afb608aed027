import type { RobotsAnswer } from '../politeness/robots-rules';
import type { OriginVerdict } from '../rate-limit/politeness-backoff';
import type { RenderOutcome } from '../rendering/render-outcome';

/**
 * What one outcome tells the politeness backoff: 5xx, timeouts and origin 429s are errors
 * (CONTRACT.md §五); any other answer from the origin ends a streak; failures that say nothing
 * about the origin (our browser crashed, DNS, a connection that never opened) leave it alone.
 */
export function originVerdictOf(outcome: RenderOutcome): OriginVerdict {
  switch (outcome.kind) {
    case 'page':
    case 'not_modified':
      return { kind: 'origin_answered' };
    case 'refused':
      return { kind: 'no_verdict' };
    case 'failed':
      break;
  }
  switch (outcome.failReason) {
    case 'http_server_error':
    case 'origin_throttled':
    case 'navigation_timeout':
      return { kind: 'origin_error', failReason: outcome.failReason };
    case 'challenge_detected': {
      // A challenge served as 429/5xx is the origin asking us to go away: back off.
      const status = outcome.httpStatus ?? 0;
      return status === 429 || status >= 500
        ? { kind: 'origin_error', failReason: 'challenge_detected' }
        : { kind: 'origin_answered' };
    }
    case 'http_client_error':
    case 'wait_selector_timeout':
    case 'content_too_large':
      return { kind: 'origin_answered' };
    default:
      return { kind: 'no_verdict' };
  }
}

/** A plain fetch of robots.txt as RFC 9309 sees it: a status, or no answer. */
export function robotsAnswerOf(outcome: RenderOutcome): RobotsAnswer {
  switch (outcome.kind) {
    case 'page':
      return { httpStatus: outcome.page.http_status, body: outcome.page.response_body };
    case 'failed':
      return {
        httpStatus: outcome.httpStatus ?? null,
        body: null,
        failReason: outcome.failReason,
      };
    default:
      // not_modified cannot happen (no validators are sent); refused = unreachable.
      return { httpStatus: null, body: null, failReason: 'connection_failed' };
  }
}
