import { randomBytes } from 'node:crypto';
import type { UrlTaskDocument } from '../frontier-documents';
import { queuedUrlTask } from '../../testing/url-task-fixtures';
import { ResidentUrlTable, ResidentValueError } from './resident-url-table';

const randomUrlHash = () => randomBytes(16).toString('hex');

/** Every field set, none at a default: a field the table dropped or mixed up would show. */
function fullTask(urlHash = randomUrlHash()): UrlTaskDocument {
  return {
    url: `https://news.example.tw/articles/${urlHash.slice(0, 6)}?lang=中文`,
    url_hash: urlHash,
    domain: 'news.example.tw',
    url_state: 'failed',
    priority_rank: 12,
    seed_priority_rank: 3,
    priority_rank_offset: 7,
    due_at: '2026-08-15T07:47:52Z',
    is_in_due_index: true,
    applied_lease_id: 'l-4f1a2b3c4d5e6f70',
    attempt_count: 2,
    lease_expiry_count: 1,
    fail_reason: 'navigation_timeout',
    park_reason: 'attempts_exhausted',
    object_id: '5f0c6e2a9d8b4f17a3c2e1d0b9a87654',
    etag: '"v42"',
    last_modified_at: '2026-08-01T00:00:00Z',
    fetched_at: '2026-08-15T07:40:00Z',
    revisit_interval_seconds: 86_400,
    discovered_at: '2026-08-14T01:02:03Z',
    updated_at: '2026-08-15T07:47:53Z',
    robots_rule_verified_at: '2026-08-15T06:00:00Z',
    last_rendered_at: '2026-08-15T07:40:01Z',
  };
}

/** Every nullable field null (a queued URL as admission makes it, without a rank). */
function bareTask(urlHash = randomUrlHash()): UrlTaskDocument {
  const { url, domain } = fullTask(urlHash);
  return queuedUrlTask({
    url,
    url_hash: urlHash,
    domain,
    priority_rank: null,
    is_in_due_index: false,
  });
}

describe('ResidentUrlTable', () => {
  it('gives back a document with every field set, and one with every nullable field null', () => {
    const table = new ResidentUrlTable();
    const full = fullTask();
    const bare = bareTask();
    table.put(full);
    table.put(bare);
    expect(table.get(full.url_hash)).toEqual(full);
    expect(table.get(bare.url_hash)).toEqual(bare);
    // Exactly the fields of the document, no more (a stored document is compared whole).
    expect(Object.keys(table.get(full.url_hash) as object).sort()).toEqual(
      Object.keys(full).sort(),
    );
    expect(table.size).toBe(2);
  });

  it('overwrites a URL in its slot, through every form of its ids and text fields', () => {
    const table = new ResidentUrlTable();
    const first = fullTask();
    const slot = table.put(first);
    const versions: UrlTaskDocument[] = [
      { ...first, applied_lease_id: 'lease-7', object_id: 'OBJECT-1', etag: 'W/"x"' },
      { ...first, applied_lease_id: null, object_id: null, etag: null },
      { ...first, applied_lease_id: 'l-0000000000000001', object_id: 'f'.repeat(32), etag: '' },
      {
        ...first,
        url_state: 'done',
        fail_reason: null,
        park_reason: null,
        due_at: '2027-01-01T00:00:00Z',
      },
    ];
    for (const version of versions) {
      expect(table.put(version)).toBe(slot);
      expect(table.read(slot)).toEqual(version);
    }
    expect(table.size).toBe(1);
  });

  it('refuses a document it could not give back exactly, and changes nothing', () => {
    const table = new ResidentUrlTable();
    const stored = fullTask();
    table.put(stored);
    const refused: UrlTaskDocument[] = [
      { ...stored, due_at: '2026-08-15T07:47:52.000Z' },
      { ...stored, fetched_at: '2026-02-30T00:00:00Z' },
      { ...stored, url_hash: stored.url_hash.toUpperCase() },
      { ...fullTask(), updated_at: 'yesterday' },
    ];
    for (const document of refused) {
      expect(() => table.put(document)).toThrow(ResidentValueError);
    }
    expect(table.size).toBe(1);
    expect(table.get(stored.url_hash)).toEqual(stored);
  });

  it('finds every URL among 200,000 and none it does not hold, across chunks and index growth', () => {
    const table = new ResidentUrlTable();
    const hashes = Array.from({ length: 200_000 }, randomUrlHash);
    const slots = hashes.map((urlHash, index) =>
      table.put({ ...bareTask(urlHash), domain: `d${index % 977}.example`, priority_rank: index }),
    );
    expect(slots.filter((slot, index) => slot !== index)).toEqual([]);
    expect(hashes.filter((urlHash, index) => table.slotOf(urlHash) !== index)).toEqual([]);
    const strangers = Array.from({ length: 50_000 }, randomUrlHash);
    expect(strangers.filter((urlHash) => table.slotOf(urlHash) !== -1)).toEqual([]);
    expect(table.slotOf('not a hash')).toBe(-1);
    for (const index of [0, 65_535, 65_536, 131_072, 199_999]) {
      expect(table.get(hashes[index])).toMatchObject({
        url_hash: hashes[index],
        domain: `d${index % 977}.example`,
        priority_rank: index,
      });
      expect(table.domainOf(index)).toBe(`d${index % 977}.example`);
      expect(table.priorityRankOf(index)).toBe(index);
      expect(table.dueAtMsOf(index)).toBe(Date.parse(bareTask().due_at));
    }
    expect(() => table.read(200_000)).toThrow(RangeError);
  });

  it('reclaims replaced text once it outweighs the live text, keeping every value', () => {
    const table = new ResidentUrlTable({ minGarbageByteCount: 0 });
    const hashes = Array.from({ length: 1000 }, randomUrlHash);
    for (let round = 0; round < 20; round += 1) {
      for (const urlHash of hashes) {
        table.put({ ...bareTask(urlHash), etag: `"${round}-${urlHash}"` });
      }
      expect(table.wastedTextByteCount).toBeLessThanOrEqual(table.liveTextByteCount);
    }
    expect(hashes.filter((urlHash) => table.get(urlHash)?.etag !== `"19-${urlHash}"`)).toEqual([]);
  });
});
