import type { UrlTaskDocument } from './frontier-documents';
import type { FrontierUrl } from './frontier-url';
import { timeTextOf } from './time-text';

/** What a newly admitted URL starts with; everything else starts empty. */
export interface NewUrlTaskFields {
  url_state: 'queued' | 'waiting_for_rule';
  priority_rank: number | null;
  seed_priority_rank: number | null;
  priority_rank_offset: number;
  /** The rule whose robots.txt allowed it (null while its domain has no rule). */
  robots_rule_verified_at: string | null;
}

/**
 * A fresh url_task. `previous` is a dropped task being revived (its domain became crawlable
 * again): it keeps its discovery time and last fetch metadata so a later fetch can be conditional.
 *
 * Every field written out, in the order the stored documents have (frontier-tables.ts, and the
 * resident table's reads): built around a spread of `fields`, each new URL's document took V8's
 * generic path for the properties after it and a shape of its own, which every reader of
 * url_task documents then met beside the stored documents' shape.
 */
export function newUrlTask(
  target: FrontierUrl,
  fields: NewUrlTaskFields,
  nowMs: number,
  previous?: UrlTaskDocument,
): UrlTaskDocument {
  const now = timeTextOf(nowMs);
  return {
    url: target.url,
    url_hash: target.urlHash,
    domain: target.domain,
    url_state: fields.url_state,
    priority_rank: fields.priority_rank,
    seed_priority_rank: fields.seed_priority_rank,
    priority_rank_offset: fields.priority_rank_offset,
    due_at: now,
    is_in_due_index: fields.url_state === 'queued',
    applied_lease_id: previous?.applied_lease_id ?? null,
    attempt_count: 0,
    lease_expiry_count: 0,
    fail_reason: null,
    park_reason: null,
    object_id: previous?.object_id ?? null,
    etag: previous?.etag ?? null,
    last_modified_at: previous?.last_modified_at ?? null,
    fetched_at: previous?.fetched_at ?? null,
    revisit_interval_seconds: null,
    discovered_at: previous?.discovered_at ?? now,
    updated_at: now,
    robots_rule_verified_at: fields.robots_rule_verified_at,
    last_rendered_at: previous?.last_rendered_at ?? null,
  };
}
