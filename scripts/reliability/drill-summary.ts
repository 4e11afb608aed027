import type { SpacingViolation } from './drill-measurements';

/** Everything the drill measured. */
export interface DrillFigures {
  readonly urlTotal: number;
  readonly stateCounts: ReadonlyMap<string, number>;
  readonly failedReasonCounts: ReadonlyMap<string, number>;
  readonly lostUrls: readonly string[];
  readonly duplicateFetchCount: number;
  readonly counterInconsistencies: readonly string[];
  readonly outboxRowsLeft: number;
  readonly killCount: number;
  /** Chromium processes still running 1 s after their downloader's kill -9, over all kills. */
  readonly orphanCount: number;
  readonly orphans: readonly string[];
  readonly sweptProfileCount: number;
  readonly leakedProfiles: readonly string[];
  readonly outageMs: number;
  readonly leaseTtlSeconds: number;
  readonly staleReports: number;
  readonly sigtermExitCode: number | null;
  readonly browserLostDuringStop: number;
  readonly spacingViolations: readonly SpacingViolation[];
  readonly minIntervalMs: number;
}

function row(label: string, value: string | number, note = ''): string {
  const text = typeof value === 'number' ? value.toLocaleString('en-US') : value;
  return `  ${label.padEnd(34)} ${text.padStart(8)}  ${note}`;
}

function printList(title: string, items: readonly string[]): void {
  if (items.length === 0) return;
  console.log(`\n${title} (${items.length}; the first 10):`);
  for (const item of items.slice(0, 10)) console.log(`  ${item}`);
}

/** Prints the drill's table and PASS/FAIL per target; true when every target passes. */
export function printDrillSummary(figures: DrillFigures): boolean {
  const done = figures.stateCounts.get('done') ?? 0;
  const failed = figures.stateCounts.get('failed') ?? 0;
  const tightestGap = Math.min(...figures.spacingViolations.map((violation) => violation.gapMs));
  console.log('');
  console.log(row('URLs total', figures.urlTotal));
  const failedReasons = [...figures.failedReasonCounts]
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  console.log(
    row(
      'URLs final',
      done + failed,
      `done ${done}, failed ${failed}${failed > 0 ? ` (${failedReasons})` : ''}`,
    ),
  );
  console.log(row('URLs lost', figures.lostUrls.length));
  console.log(
    row('duplicate origin fetches', figures.duplicateFetchCount, 'page fetches beyond the first'),
  );
  console.log(row('counter inconsistencies', figures.counterInconsistencies.length));
  console.log(row('outbox rows left', figures.outboxRowsLeft));
  console.log(row('kill -9 of a downloader mid-lease', figures.killCount));
  console.log(row('orphaned Chromium after 1 s', figures.orphanCount));
  console.log(
    row(
      'leaked profiles',
      figures.leakedProfiles.length,
      `${figures.sweptProfileCount} swept at restarts`,
    ),
  );
  console.log(
    row(
      'stale reports after the outage',
      figures.staleReports,
      `outage ${figures.outageMs / 1000} s, leases of ${figures.leaseTtlSeconds} s`,
    ),
  );
  console.log(
    row(
      'SIGTERM mid-lease',
      `exit ${figures.sigtermExitCode}`,
      `${figures.browserLostDuringStop} browser losses during the stop`,
    ),
  );
  console.log(
    row(
      'spacing violations',
      figures.spacingViolations.length,
      `min_interval_ms ${figures.minIntervalMs}, by the origin's access log` +
        (figures.spacingViolations.length > 0 ? `; tightest gap ${tightestGap} ms` : ''),
    ),
  );
  printList('lost URLs', figures.lostUrls);
  printList('counter inconsistencies', figures.counterInconsistencies);
  printList('orphaned Chromium processes', figures.orphans);
  printList('leaked profiles', figures.leakedProfiles);
  printList(
    'spacing violations',
    figures.spacingViolations.map(
      (violation) => `${violation.host} ${violation.gapMs} ms: ${violation.between}`,
    ),
  );
  const targets: Array<[boolean, string]> = [
    [figures.lostUrls.length === 0, `0 URLs lost: ${figures.lostUrls.length}`],
    [
      figures.counterInconsistencies.length === 0,
      `0 counter inconsistencies: ${figures.counterInconsistencies.length}`,
    ],
    [figures.outboxRowsLeft === 0, `0 outbox rows left: ${figures.outboxRowsLeft}`],
    [
      figures.orphanCount === 0,
      `0 orphaned Chromium after 1 s: ${figures.orphanCount} over ${figures.killCount} kills`,
    ],
    [figures.leakedProfiles.length === 0, `0 leaked profiles: ${figures.leakedProfiles.length}`],
    [
      figures.staleReports === 0,
      `0 stale reports after an outage shorter than the leases' remaining life: ${figures.staleReports}`,
    ],
    [
      figures.sigtermExitCode === 0 && figures.browserLostDuringStop === 0,
      `SIGTERM mid-lease stops gracefully: exit ${figures.sigtermExitCode}, ${figures.browserLostDuringStop} renders lost to a closed browser`,
    ],
    [
      figures.spacingViolations.length === 0,
      `0 spacing violations: ${figures.spacingViolations.length}`,
    ],
  ];
  console.log('');
  for (const [isPassed, text] of targets) console.log(`${isPassed ? 'PASS' : 'FAIL'}  ${text}`);
  return targets.every(([isPassed]) => isPassed);
}
