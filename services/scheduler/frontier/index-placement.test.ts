import { storedFormOf, type UrlTaskDocument } from './frontier-documents';
import { dueIndexKey, paddedRank } from './frontier-tables';
import { isLeaseOfDueEntry, isSamePlacement, placementOf } from './index-placement';
import { leasedBy } from './url-task-transitions';
import { newUrlTask } from './url-task-factory';

const nowMs = Date.UTC(2026, 7, 15, 7, 0, 0);

function queuedTask(overrides: Partial<UrlTaskDocument> = {}): UrlTaskDocument {
  const task = newUrlTask(
    { url: 'https://a.example/', urlHash: '0123456789abcdef0123456789abcdef', domain: 'a.example' },
    {
      url_state: 'queued',
      priority_rank: 10,
      seed_priority_rank: null,
      priority_rank_offset: 0,
      robots_rule_verified_at: null,
    },
    nowMs,
  );
  return { ...task, ...overrides };
}

describe('isLeaseOfDueEntry', () => {
  it('holds for a lease of a due URL, whose stored form sits at the same due key', () => {
    const source = queuedTask();
    const placement = placementOf(source);
    const leased = leasedBy(source);
    expect(placement?.indexName).toBe('due');
    expect(isLeaseOfDueEntry(source, placement, leased)).toBe(true);
    expect(isSamePlacement(placement, placementOf(storedFormOf(leased)))).toBe(true);
  });

  it.each([
    ['another rank', { priority_rank: 11 }],
    ['another due time', { due_at: '2026-08-15T08:00:00Z' }],
    ['another URL', { url_hash: 'fedcba9876543210fedcba9876543210' }],
    ['another domain', { domain: 'b.example' }],
  ])('does not hold for a leased document with %s', (_name, change) => {
    const source = queuedTask();
    const leased = leasedBy({ ...source, ...change });
    expect(isLeaseOfDueEntry(source, placementOf(source), leased)).toBe(false);
    expect(isSamePlacement(placementOf(source), placementOf(storedFormOf(leased)))).toBe(false);
  });

  it('does not hold for a URL that was not in the due index', () => {
    const source = queuedTask({ is_in_due_index: false });
    expect(placementOf(source)?.indexName).toBe('revisit');
    expect(isLeaseOfDueEntry(source, placementOf(source), leasedBy(source))).toBe(false);
  });
});

describe('due-index keys', () => {
  it('pad ranks to one width, so byte order is numeric order, above the cached range too', () => {
    const ranks = [0, 9, 10, 4095, 4096, 123456789];
    const padded = ranks.map(paddedRank);
    expect(padded.every((text) => text.length === 16)).toBe(true);
    expect([...padded].sort()).toEqual(padded);
    expect(paddedRank(10)).toBe(paddedRank(10));
    expect(dueIndexKey('a.example', 7, '2026-08-15T07:00:00Z', 'ab').encoded).toBe(
      'a.example/0000000000000007/2026-08-15T07%3A00%3A00Z/ab',
    );
  });
});
