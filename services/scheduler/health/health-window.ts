import type {
  DomainHealthDocument,
  HealthWindowSums,
  PauseReason,
} from '../frontier/frontier-documents';
import type { FailReason, HealthSignal, ReportResult } from '../frontier/wire-types';

/** When a domain counts as unhealthy (configuration, see README). */
export interface HealthThresholds {
  /** Results the sliding window spans (two halves of half this size each). */
  windowResultCount: number;
  /** Fewer results than this in the window decide nothing. */
  minResultCount: number;
  /** Fewer XHRs than this in the window leave the XHR ratios undecided. */
  minXhrCount: number;
  xhrErrorRatio: number;
  xhrThrottledRatio: number;
  xhrDeniedRatio: number;
  originFailureRatio: number;
}

/**
 * Failed fetches that say the origin (not our renderer or network) is in trouble or refusing us.
 * Timeouts and browser crashes are left out: they are as often ours as the site's.
 */
const ORIGIN_FAILURE_REASONS: ReadonlySet<FailReason> = new Set<FailReason>([
  'http_server_error',
  'origin_throttled',
  'challenge_detected',
]);

export function emptyWindow(): HealthWindowSums {
  return {
    result_count: 0,
    xhr_total_count: 0,
    xhr_error_count: 0,
    xhr_throttled_count: 0,
    xhr_denied_count: 0,
    origin_failure_count: 0,
  };
}

/** One result as the window counts it; ratios only — "the main XHR" is never identified. */
export function observationOfResult(result: ReportResult): HealthWindowSums {
  const observation = observationOfSignal(result.health_signal);
  observation.result_count = 1;
  if (result.fetch_status === 'failed' && result.fail_reason !== null) {
    observation.origin_failure_count = ORIGIN_FAILURE_REASONS.has(result.fail_reason) ? 1 : 0;
  }
  return observation;
}

export function observationOfSignal(signal: HealthSignal | null): HealthWindowSums {
  const observation = emptyWindow();
  observation.result_count = 1;
  if (signal !== null) {
    observation.xhr_total_count = signal.xhr_total_count;
    observation.xhr_error_count = signal.xhr_error_count;
    observation.xhr_throttled_count = signal.xhr_throttled_count;
    observation.xhr_denied_count = signal.xhr_denied_count;
  }
  return observation;
}

/** Adds `observation` into `sums`. */
function addInto(sums: HealthWindowSums, observation: HealthWindowSums): void {
  sums.result_count += observation.result_count;
  sums.xhr_total_count += observation.xhr_total_count;
  sums.xhr_error_count += observation.xhr_error_count;
  sums.xhr_throttled_count += observation.xhr_throttled_count;
  sums.xhr_denied_count += observation.xhr_denied_count;
  sums.origin_failure_count += observation.origin_failure_count;
}

/** The two halves of a domain's window, as its health row holds them. */
export type SlidingWindow = Pick<DomainHealthDocument, 'current_window' | 'previous_window'>;

/**
 * A sliding window in two halves: observations add to the current half; once it holds half the
 * window, it becomes the previous half and a new one starts. Judging both halves together always
 * covers the last W/2 to W results with twelve numbers per domain, however busy the domain is.
 */
export function slide(
  window: SlidingWindow,
  observation: HealthWindowSums,
  thresholds: HealthThresholds,
): void {
  addInto(window.current_window, observation);
  if (
    window.current_window.result_count >= Math.max(1, Math.floor(thresholds.windowResultCount / 2))
  ) {
    // The old previous half, emptied, is the new current one: a window's two objects are reused
    // for as long as its domain stays healthy (a new pair per result was old-generation garbage).
    const emptied = window.previous_window;
    window.previous_window = window.current_window;
    Object.assign(emptied, emptyWindow());
    window.current_window = emptied;
  }
}

/** The first ratio over its threshold, or null while the domain looks healthy (or undecided). */
export function findPauseReason(
  sums: HealthWindowSums,
  thresholds: HealthThresholds,
  minResultCount = thresholds.minResultCount,
): PauseReason | null {
  if (sums.result_count < minResultCount) return null;
  if (sums.origin_failure_count / sums.result_count >= thresholds.originFailureRatio) {
    return 'origin_failure_ratio';
  }
  const total = sums.xhr_total_count;
  if (total < thresholds.minXhrCount || total === 0) return null;
  // In this order; checked one by one, not from a table: this runs for every report result.
  if (sums.xhr_error_count / total >= thresholds.xhrErrorRatio) return 'xhr_error_ratio';
  if (sums.xhr_throttled_count / total >= thresholds.xhrThrottledRatio)
    return 'xhr_throttled_ratio';
  if (sums.xhr_denied_count / total >= thresholds.xhrDeniedRatio) return 'xhr_denied_ratio';
  return null;
}

export function windowSums(window: SlidingWindow): HealthWindowSums {
  const sums = { ...window.current_window };
  addInto(sums, window.previous_window);
  return sums;
}

/** An origin that answered a probe is healthy when it neither failed nor refused us. */
export function isProbeAnswerHealthy(
  httpStatus: number | null,
  signal: HealthSignal | null,
  thresholds: HealthThresholds,
): boolean {
  if (httpStatus === null || httpStatus >= 500 || [401, 403, 429].includes(httpStatus)) {
    return false;
  }
  // One page decides: its own XHR ratios, with the usual minimum of XHRs.
  return findPauseReason(observationOfSignal(signal), thresholds, 1) === null;
}
