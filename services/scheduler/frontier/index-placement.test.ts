import type { PrimaryKey } from '../../common/storage/primary-key';
import { storedFormOf, type UrlTaskDocument } from './frontier-documents';
import { dueIndexKey, paddedRank } from './frontier-tables';
import { isLeaseOfDueEntry, isSamePlacement, placementOf } from './index-placement';
import { leasedBy } from './url-task-transitions';
import { queuedUrlTask } from '../testing/url-task-fixtures';

describe('isLeaseOfDueEntry', () => {
  it('holds for a lease of a due URL, whose stored form sits at the same due key', () => {
    const source = queuedUrlTask();
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
    const source = queuedUrlTask();
    const leased = leasedBy({ ...source, ...change });
    expect(isLeaseOfDueEntry(source, placementOf(source), leased)).toBe(false);
    expect(isSamePlacement(placementOf(source), placementOf(storedFormOf(leased)))).toBe(false);
  });

  it('does not hold for a URL that was not in the due index', () => {
    const source = queuedUrlTask({ is_in_due_index: false });
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
    expect(dueIndexKey('a.example', 7, '2026-08-15T07:00:00Z', 'ab').encoded).toBe(
      'a.example/0000000000000007/2026-08-15T07%3A00%3A00Z/ab',
    );
  });
});

describe('isSamePlacement', () => {
  // A document in each index, and what changing each part of its key does.
  const cases: Array<[string, Partial<UrlTaskDocument>, Array<Partial<UrlTaskDocument>>]> = [
    [
      'due',
      {},
      [
        { priority_rank: 11 },
        { due_at: '2026-08-15T08:00:00Z' },
        { url_hash: 'fedcba9876543210fedcba9876543210' },
        { domain: 'b.example' },
      ],
    ],
    [
      'revisit',
      { is_in_due_index: false },
      [
        { due_at: '2026-08-15T08:00:00Z' },
        { url_hash: 'fedcba9876543210fedcba9876543210' },
        { domain: 'b.example' },
      ],
    ],
    [
      'waiting',
      { url_state: 'waiting_for_rule' },
      [{ url_hash: 'fedcba9876543210fedcba9876543210' }, { domain: 'b.example' }],
    ],
  ];

  it.each(cases)('tells %s entries apart as their keys do', (indexName, fields, changes) => {
    const source = queuedUrlTask(fields);
    const placement = placementOf(source);
    expect(placement?.indexName).toBe(indexName);
    // Another document at the same spot: the same placement, under the same key.
    const same = placementOf({ ...source, attempt_count: source.attempt_count + 1 });
    expect(isSamePlacement(placement, same)).toBe(true);
    expect(same?.key.equals(placement?.key as PrimaryKey)).toBe(true);
    for (const change of changes) {
      const moved = placementOf({ ...source, ...change });
      expect({ change, isSame: isSamePlacement(placement, moved) }).toEqual({
        change,
        isSame: false,
      });
      expect(moved?.key.equals(placement?.key as PrimaryKey)).toBe(false);
    }
    expect(isSamePlacement(placement, undefined)).toBe(false);
  });
});
