import { createHash } from 'node:crypto';
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
