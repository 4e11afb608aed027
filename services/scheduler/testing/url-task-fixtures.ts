import { createHash, randomBytes } from 'node:crypto';
import type { UrlTaskDocument } from '../frontier/frontier-documents';
import { newUrlTask } from '../frontier/url-task-factory';

/** 2026-08-15T07:00:00Z: the time fixture url_tasks are discovered at. */
export const FIXTURE_NOW_MS = Date.UTC(2026, 7, 15, 7, 0, 0);

/** A queued url_task of a.example at rank 10, due at FIXTURE_NOW_MS; tests override fields. */
export function queuedUrlTask(overrides: Partial<UrlTaskDocument> = {}): UrlTaskDocument {
  const task = newUrlTask(
    { url: 'https://a.example/', urlHash: '0123456789abcdef0123456789abcdef', domain: 'a.example' },
    {
      url_state: 'queued',
      priority_rank: 10,
      seed_priority_rank: null,
      priority_rank_offset: 0,
      robots_rule_verified_at: null,
    },
    FIXTURE_NOW_MS,
  );
  return { ...task, ...overrides };
}

/**
 * A url_hash for the `index`-th fixture URL, its 32 hex digits spread as real ones are: the
 * resident url_hash index and the known-URL set hash on the first word, so hashes counted up from
 * zero would all collide there.
 */
export function spreadUrlHashOf(index: number): string {
  return createHash('md5').update(String(index)).digest('hex');
}

/** A url_hash at random. */
export const randomUrlHash = (): string => randomBytes(16).toString('hex');

/** Every field set, none at a default: a field the table dropped or mixed up would show. */
export function fullTask(urlHash = randomUrlHash()): UrlTaskDocument {
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
export function bareTask(urlHash = randomUrlHash()): UrlTaskDocument {
  const { url, domain } = fullTask(urlHash);
  return queuedUrlTask({
    url,
    url_hash: urlHash,
    domain,
    priority_rank: null,
    is_in_due_index: false,
  });
}
