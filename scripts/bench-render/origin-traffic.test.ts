import type { OriginAccessLogEntry } from '../demo-site/origin-access-log';
import { findSpacingViolations } from './origin-traffic';

function entry(host: string, path: string, receivedAtMs: number): OriginAccessLogEntry {
  return {
    host,
    method: 'GET',
    path,
    status: 200,
    receivedAt: new Date(receivedAtMs).toISOString(),
    receivedAtMs,
    userAgent: 'test',
  };
}

describe('findSpacingViolations', () => {
  test('judges only what the crawler initiated, per host, by arrival time', () => {
    const entries = [
      entry('127.0.1.1', '/robots.txt', 0),
      entry('127.0.1.1', '/items/0', 1000),
      // Subresources of the page come right after it: not the crawler's own requests.
      entry('127.0.1.1', '/static/bench-page.js', 1010),
      entry('127.0.1.1', '/api/items/0/content?delay_ms=150', 1020),
      entry('127.0.1.2', '/items/1', 1100), // another host: its own spacing
      entry('127.0.1.1', '/items/120', 1999), // 999 ms after /items/0
      entry('127.0.1.2', '/items/121', 2100),
    ];
    expect(findSpacingViolations(entries, 1000)).toEqual([
      { host: '127.0.1.1', gapMs: 999, paths: ['/items/0', '/items/120'] },
    ]);
    expect(findSpacingViolations(entries, 999)).toEqual([]);
  });
});
