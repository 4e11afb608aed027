import { urlHash } from '../../common/url/url-hash';
import type { ConsoleError, HealthSignal, NetworkLogEntry } from './rendered-page';

/**
 * CONTRACT.md §三 "health_signal 字段来源": computed from the raw network log and console errors,
 * which stay in the page object. Counts are over network_log entries of type xhr (fetch() included).
 */
export function computeHealthSignal(
  networkLog: readonly NetworkLogEntry[],
  consoleErrors: readonly ConsoleError[],
  finalUrl: string,
): HealthSignal {
  const xhrStatuses = networkLog
    .filter((entry) => entry.type === 'xhr')
    .map((entry) => entry.http_status);
  const countWhere = (predicate: (status: number) => boolean): number =>
    xhrStatuses.filter((status) => status !== null && predicate(status)).length;
  return {
    xhr_total_count: xhrStatuses.length,
    xhr_error_count: countWhere((status) => status >= 500),
    xhr_throttled_count: countWhere((status) => status === 429),
    xhr_denied_count: countWhere((status) => status === 401 || status === 403),
    has_console_error: consoleErrors.length > 0,
    redirect_target_hash: urlHash(finalUrl),
  };
}
