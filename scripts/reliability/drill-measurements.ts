import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SchedulerClient } from '../../generated/scheduler';
import { ContractHttpError } from '../../services/common/contract-runtime/client-errors';
import {
  openStorageBackend,
  storageBackendSettingsFromEnvironment,
} from '../../services/common/storage/open-storage-backend';
import { openServiceKeyspace } from '../../services/common/storage/service-keyspace';
import { urlHash } from '../../services/common/url';
import type { OriginAccessLog, OriginAccessLogEntry } from '../demo-site/origin-access-log';
import { tally } from './tally';

/** Where every seeded URL ended: by url_state, and those the frontier lost or never finished. */
export interface UrlOutcome {
  readonly stateCounts: Map<string, number>;
  /** Failed URLs by why: park_reason, with the last fetch's fail_reason when there was one. */
  readonly failedReasonCounts: Map<string, number>;
  /** Not in the frontier any more, or not final (done, failed) when the drill ended. */
  readonly lostUrls: string[];
}

const FINAL_STATES = new Set(['done', 'failed']);

export async function urlOutcomeOf(
  scheduler: SchedulerClient,
  urls: readonly string[],
): Promise<UrlOutcome> {
  const stateCounts = new Map<string, number>();
  const failedReasonCounts = new Map<string, number>();
  const lostUrls: string[] = [];
  for (const url of urls) {
    try {
      const view = await scheduler.getUrlTask({ url_hash: urlHash(url) });
      tally(stateCounts, view.url_state);
      if (view.url_state === 'failed') {
        const reason = view.park_reason ?? 'no park_reason';
        tally(failedReasonCounts, view.fail_reason ? `${reason} (${view.fail_reason})` : reason);
      }
      if (!FINAL_STATES.has(view.url_state)) lostUrls.push(`${url} (${view.url_state})`);
    } catch (error) {
      if (!(error instanceof ContractHttpError) || error.status !== 404) throw error;
      lostUrls.push(`${url} (not in the frontier)`);
    }
  }
  return { stateCounts, failedReasonCounts, lostUrls };
}

/**
 * The scheduler's in-memory counters against what is stored: its summary's count per url_state
 * against the URLs' own states, no live lease and nothing in flight once everything is final, and
 * no counter that would have gone negative (the scheduler logs that and keeps it at 0).
 */
export async function counterInconsistenciesOf(
  scheduler: SchedulerClient,
  outcome: UrlOutcome,
  schedulerLogLines: ReadonlyArray<Record<string, unknown>>,
): Promise<string[]> {
  const summary = await scheduler.getFrontierSummary({ limit: 1000 });
  const problems: string[] = [];
  for (const row of summary.url_state_list) {
    const actual = outcome.stateCounts.get(row.url_state) ?? 0;
    if (row.url_count !== actual) {
      problems.push(`url_state ${row.url_state}: summary ${row.url_count}, URLs ${actual}`);
    }
  }
  if (summary.live_lease_count !== 0) {
    problems.push(`live_lease_count ${summary.live_lease_count} with every URL final`);
  }
  for (const domain of summary.domain_list) {
    if (domain.in_flight_count !== 0) {
      problems.push(`${domain.domain}: in_flight_count ${domain.in_flight_count} at the end`);
    }
  }
  const negative = schedulerLogLines.filter(
    (line) => line.msg === 'a counter would have gone negative; kept at 0',
  );
  for (const line of negative) problems.push(`counter went negative for ${String(line.domain)}`);
  return problems;
}

/** Rows left in a stopped downloader's report outbox (read from its LMDB directly). */
export async function outboxRowCountOf(dataDirectory: string): Promise<number> {
  const backend = await openStorageBackend(
    storageBackendSettingsFromEnvironment('downloader', {
      STORAGE_DATA_DIRECTORY: join(dataDirectory, 'downloader'),
    }),
  );
  try {
    const table = openServiceKeyspace('downloader', backend).table('report_outbox_task');
    return (await table.scan({ limit: 10_000 })).rows.length;
  } finally {
    await backend.close();
  }
}

/**
 * Profiles and Chromium temporary directories left once every downloader stopped: anything in a
 * downloader's profile root, and Chromium's own leftovers in the drill's TMPDIR (a profile
 * puppeteer made, a singleton-socket directory, a downloader's Chromium TMPDIR not removed).
 */
export function leakedProfilesOf(profileRoots: readonly string[], temporaryDirectory: string) {
  const left = profileRoots.flatMap((root) =>
    existsSync(root) ? readdirSync(root).map((name) => join(root, name)) : [],
  );
  const chromiumTemporary = readdirSync(temporaryDirectory)
    .filter((name) =>
      /^(puppeteer_dev_chrome_profile-|org\.chromium\.Chromium\.|chromium-)/.test(name),
    )
    .map((name) => join(temporaryDirectory, name));
  return [...left, ...chromiumTemporary];
}

/** Requests the crawler initiated (a page's own CSS, JS and XHRs belong to its load). */
function isInitiated(entry: OriginAccessLogEntry): boolean {
  return (
    !entry.path.startsWith('/static/') &&
    !entry.path.startsWith('/api/') &&
    entry.path !== '/favicon.ico'
  );
}

export interface SpacingViolation {
  readonly host: string;
  readonly gapMs: number;
  readonly between: string;
}

/** Two initiated requests to one host closer than min_interval_ms, by the origin's own clock. */
export function spacingViolationsOf(
  accessLog: OriginAccessLog,
  hosts: readonly string[],
  minIntervalMs: number,
): SpacingViolation[] {
  const violations: SpacingViolation[] = [];
  for (const host of hosts) {
    const entries = accessLog.list(host).filter(isInitiated);
    for (let index = 1; index < entries.length; index += 1) {
      const gapMs = entries[index].receivedAtMs - entries[index - 1].receivedAtMs;
      if (gapMs < minIntervalMs) {
        violations.push({
          host,
          gapMs,
          between: `${entries[index - 1].path} → ${entries[index].path}`,
        });
      }
    }
  }
  return violations;
}

/** Page fetches beyond the first, per seeded URL (a kill or an outage makes some re-fetches). */
export function duplicateFetchCountOf(accessLog: OriginAccessLog, urls: readonly string[]): number {
  const fetches = new Map<string, number>();
  for (const entry of accessLog.list()) {
    if (!isInitiated(entry) || entry.method !== 'GET') continue;
    tally(fetches, `${entry.host}${entry.path}`);
  }
  return urls.reduce((total, url) => {
    const { hostname, pathname, search } = new URL(url);
    return total + Math.max(0, (fetches.get(`${hostname}${pathname}${search}`) ?? 0) - 1);
  }, 0);
}
