import { formatResults, type Verdict } from './bench-report';
import {
  MANY_DOMAIN_MIN_INTERVAL_MS,
  MANY_DOMAIN_PAGES_PER_HOST,
  manyDomainHosts,
} from './bench-settings';
import { startBenchSite } from './bench-site';
import { runDownloaderService } from './contenders/downloader-service';
import { findSpacingViolations, summarizeOriginTraffic } from './origin-traffic';
import { computeRunStatistics } from './run-statistics';

export interface ManyDomainRoundOptions {
  readonly downloaderArguments: readonly string[];
  readonly signal: AbortSignal;
}

/**
 * The many-domain round: `hostCount` loopback hosts (127.0.1.1 …), a few pages each, listed host
 * by host and sent in that order (not host-aware) with min_interval_ms 1000 — so the downloader's
 * politeness, not the client, has to keep each host's requests apart (a page too early is
 * answered 429 and sent again after retry_after_seconds). Judged by the origin's own log: no two
 * requests the crawler initiated to one host (robots.txt, documents) closer than the interval;
 * and, as everywhere, no failed page and no XHR missing from a network_log.
 */
export async function runManyDomainRound(
  hostCount: number,
  options: ManyDomainRoundOptions,
): Promise<Verdict[]> {
  const hosts = manyDomainHosts(hostCount);
  const site = await startBenchSite(hosts, hostCount * MANY_DOMAIN_PAGES_PER_HOST);
  try {
    const urls = [...site.pages]
      .sort((left, right) => left.hostIndex - right.hostIndex || left.itemNumber - right.itemNumber)
      .map((page) => page.url);
    const label = `downloader service, ${hostCount} hosts at min_interval_ms ${MANY_DOMAIN_MIN_INTERVAL_MS}`;
    console.log(
      `\n▶ many-domain round: ${urls.length} pages over ${hostCount} hosts (${hosts[0]}…${hosts.at(-1)}), ` +
        `${MANY_DOMAIN_PAGES_PER_HOST} a host, listed host by host, min_interval_ms ${MANY_DOMAIN_MIN_INTERVAL_MS}`,
    );
    let doneCount = 0;
    const run = await runDownloaderService(
      urls,
      { extraArguments: options.downloaderArguments },
      {
        label,
        hosts,
        signal: options.signal,
        timeoutMs: 60_000 + urls.length * 2000,
        minIntervalMs: MANY_DOMAIN_MIN_INTERVAL_MS,
        isInListOrder: true,
        onRecord: () => {
          doneCount += 1;
          if (doneCount % 40 === 0 || doneCount === urls.length) {
            console.log(`  ${label}: ${doneCount}/${urls.length} pages`);
          }
        },
      },
    );
    const statistics = computeRunStatistics([run], site.pages, new Set());
    const entries = site.accessLog.list();
    const violations = findSpacingViolations(entries, MANY_DOMAIN_MIN_INTERVAL_MS);
    console.log(
      `\n${formatResults([
        {
          role: 'downloader-service',
          label,
          runs: [{ ...run, notes: [...(run.notes ?? []), summarizeOriginTraffic(entries)] }],
          statistics,
        },
      ])}\n`,
    );
    const worst = violations.sort((left, right) => left.gapMs - right.gapMs)[0];
    return [
      {
        isPass: violations.length === 0 && entries.length > 0,
        text:
          `many-domain round: ${violations.length} spacing violations in the origin's log ` +
          `(requests to one host closer than ${MANY_DOMAIN_MIN_INTERVAL_MS} ms)` +
          (worst === undefined
            ? ''
            : `; closest ${worst.gapMs} ms on ${worst.host} (${worst.paths.join(' → ')})`),
      },
      {
        isPass:
          statistics !== undefined &&
          statistics.failedCount === 0 &&
          statistics.pageCount === urls.length,
        text:
          `many-domain round: ${statistics?.failedCount ?? urls.length} of ${urls.length} pages failed` +
          (run.error ? ` (${run.error.split('\n')[0]})` : ''),
      },
      {
        isPass:
          statistics !== undefined &&
          statistics.missingXhrCount === 0 &&
          statistics.expectedXhrCount > 0,
        text: `many-domain round: ${statistics?.missingXhrCount ?? '?'} of ${statistics?.expectedXhrCount ?? '?'} XHRs missing`,
      },
    ];
  } finally {
    await site.stop();
  }
}
