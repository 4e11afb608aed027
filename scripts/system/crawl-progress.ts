/**
 * The crawl's progress line in `make run`: URLs per state from the scheduler's operator view, and
 * for failed URLs why — read from the scheduler's `scheduler_parked_url_total` counter, which
 * counts URLs parked as failed by park reason and last fail_reason since the scheduler started.
 */

import { samplesOf } from './prometheus-samples';

/** URLs parked as failed, keyed by `park_reason/fail_reason`. */
export type ParkedCounts = Map<string, number>;

/** The parked-URL counts in a Prometheus text exposition (zero samples left out). */
export function parkedCountsOf(metricsText: string): ParkedCounts {
  const counts: ParkedCounts = new Map();
  for (const { labels, value } of samplesOf(metricsText, 'scheduler_parked_url_total')) {
    if (value > 0) counts.set(`${labels.park_reason}/${labels.fail_reason ?? 'none'}`, value);
  }
  return counts;
}

/** Why a URL was given up on, in words. */
function reasonText(key: string): string {
  const [parkReason, failReason] = key.split('/');
  switch (parkReason) {
    case 'robots_disallowed':
      return 'refused by robots.txt';
    case 'lease_expiries_exhausted':
      return 'leases kept expiring (downloader crashed or hung)';
    case 'attempts_exhausted':
      return failReason === 'none'
        ? 'gave up after retries'
        : `gave up after repeated ${failReason}`;
    default:
      return parkReason;
  }
}

/** E.g. `done 12, failed 3 (2 refused by robots.txt, 1 gave up after repeated navigation_timeout)`. */
export function crawlProgressLine(
  urlStateList: ReadonlyArray<{ url_state: string; url_count: number }>,
  parked: ParkedCounts,
): string {
  return urlStateList
    .filter((row) => row.url_count > 0)
    .map((row) => {
      const text = `${row.url_state} ${row.url_count}`;
      if (row.url_state !== 'failed' || parked.size === 0) return text;
      const reasons = [...parked.entries()]
        .sort(([, a], [, b]) => b - a)
        .map(([key, count]) => `${count} ${reasonText(key)}`);
      const explained = [...parked.values()].reduce((sum, count) => sum + count, 0);
      // Counted since the scheduler started: failures of an earlier run stay unexplained.
      if (explained < row.url_count) reasons.push(`${row.url_count - explained} before this start`);
      return `${text} (${reasons.join(', ')})`;
    })
    .join(', ');
}

/**
 * How the downloader fetched the leased pages since it started (contract v2), from its
 * `downloader_lease_task_strategy_total` counter: e.g. ` · fetched: 56 rendered, 6 through a JSON
 * API`; empty before anything went through an API.
 */
export function fetchStrategyText(downloaderMetricsText: string): string {
  const counts = { render: 0, api: 0 };
  for (const { labels, value } of samplesOf(
    downloaderMetricsText,
    'downloader_lease_task_strategy_total',
  )) {
    if (labels.render_strategy === 'render' || labels.render_strategy === 'api') {
      counts[labels.render_strategy] += value;
    }
  }
  if (counts.api === 0) return '';
  return ` · fetched: ${counts.render} rendered, ${counts.api} through a JSON API`;
}
