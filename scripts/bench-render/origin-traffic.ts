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
