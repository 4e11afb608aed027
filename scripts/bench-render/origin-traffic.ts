import type { OriginAccessLogEntry } from '../demo-site/origin-access-log';

/** Paths of resource types every contender must block (images, fonts — the bench's only ones). */
const BLOCKED_RESOURCE_PATH = /\.(png|woff2?)(\?|$)/;

/**
 * What the bench site saw of one contender: the proof that all of them fetched the same kind of
 * traffic (no font or image ever requested, i.e. blocking is equal) and how many robots.txt
 * fetches the downloader's robots check cost.
 */
export function summarizeOriginTraffic(entries: readonly OriginAccessLogEntry[]): string {
  const count = (test: (path: string) => boolean) =>
    entries.filter((entry) => test(entry.path)).length;
  const blockedResourceCount = count((path) => BLOCKED_RESOURCE_PATH.test(path));
  return (
    `origin saw ${entries.length} requests: ${count((path) => path.startsWith('/items/'))} ` +
    `documents, ${count((path) => path.startsWith('/api/'))} XHRs, ` +
    `${count((path) => path === '/robots.txt')} robots.txt, ` +
    `${blockedResourceCount} images/fonts (must be 0)`
  );
}

/**
 * Requests a crawler sends itself (documents, robots.txt); the rest — the bench page's script and
 * stylesheet under /static/, its XHRs under /api/, a favicon — is what a page loads.
 */
export function isInitiatedRequest(entry: OriginAccessLogEntry): boolean {
  return !/^\/(static|api)\//.test(entry.path) && entry.path !== '/favicon.ico';
}

/** Two consecutive requests the crawler initiated to one host, and the time between them. */
export interface RequestGap {
  readonly host: string;
  readonly gapMs: number;
  readonly paths: readonly [string, string];
}

/** A gap shorter than the interval. */
export type SpacingViolation = RequestGap;

/** Every gap between two consecutive requests the crawler initiated to one host (origin's clock). */
export function initiatedRequestGaps(entries: readonly OriginAccessLogEntry[]): RequestGap[] {
  const byHost = new Map<string, OriginAccessLogEntry[]>();
  for (const entry of entries.filter(isInitiatedRequest)) {
    byHost.set(entry.host, [...(byHost.get(entry.host) ?? []), entry]);
  }
  const gaps: RequestGap[] = [];
  for (const [host, hostEntries] of byHost) {
    const ordered = [...hostEntries].sort((left, right) => left.receivedAtMs - right.receivedAtMs);
    for (let index = 1; index < ordered.length; index += 1) {
      const gapMs = ordered[index].receivedAtMs - ordered[index - 1].receivedAtMs;
      gaps.push({ host, gapMs, paths: [ordered[index - 1].path, ordered[index].path] });
    }
  }
  return gaps;
}

/**
 * Two requests the crawler initiated to one host closer together than `minIntervalMs`, by the
 * origin's own arrival times — the politeness judge that does not trust the crawler's clock.
 */
export function findSpacingViolations(
  entries: readonly OriginAccessLogEntry[],
  minIntervalMs: number,
): SpacingViolation[] {
  return initiatedRequestGaps(entries).filter((gap) => gap.gapMs < minIntervalMs);
}
