import { urlTaskCodec } from './frontier-tables';
import { timeTextOf } from './time-text';
import { newUrlTask, type NewUrlTaskFields } from './url-task-factory';

const NOW_MS = Date.UTC(2026, 7, 15, 7, 0, 0);
const TARGET = {
  url: 'https://news.example/a',
  urlHash: '0123456789abcdef0123456789abcdef',
  domain: 'news.example',
};
const QUEUED: NewUrlTaskFields = {
  url_state: 'queued',
  priority_rank: 12,
  seed_priority_rank: null,
  priority_rank_offset: 2,
  robots_rule_verified_at: '2026-08-15T06:00:00Z',
};

describe('newUrlTask', () => {
  it('makes a fresh url_task from the admission fields, due now', () => {
    expect(newUrlTask(TARGET, QUEUED, NOW_MS)).toEqual({
      url: TARGET.url,
      url_hash: TARGET.urlHash,
      domain: TARGET.domain,
      url_state: 'queued',
      priority_rank: 12,
      seed_priority_rank: null,
      priority_rank_offset: 2,
      due_at: timeTextOf(NOW_MS),
      is_in_due_index: true,
      applied_lease_id: null,
      attempt_count: 0,
      lease_expiry_count: 0,
      fail_reason: null,
      park_reason: null,
      object_id: null,
      etag: null,
      last_modified_at: null,
      fetched_at: null,
      revisit_interval_seconds: null,
      discovered_at: timeTextOf(NOW_MS),
      updated_at: timeTextOf(NOW_MS),
      robots_rule_verified_at: '2026-08-15T06:00:00Z',
      last_rendered_at: null,
    });
    const waiting = newUrlTask(
      TARGET,
      { ...QUEUED, url_state: 'waiting_for_rule', priority_rank: null },
      NOW_MS,
    );
    expect(waiting).toMatchObject({ url_state: 'waiting_for_rule', is_in_due_index: false });
  });

  it('revives a dropped task with its discovery time and its last fetch', () => {
    const dropped = {
      ...newUrlTask(TARGET, QUEUED, NOW_MS - 86_400_000),
      url_state: 'dropped' as const,
      applied_lease_id: 'l-0123456789abcdef',
      object_id: 'fedcba9876543210fedcba9876543210',
      etag: '"v1"',
      last_modified_at: '2026-08-01T00:00:00Z',
      fetched_at: '2026-08-14T07:00:00Z',
      last_rendered_at: '2026-08-14T07:00:01Z',
    };
    expect(newUrlTask(TARGET, QUEUED, NOW_MS, dropped)).toMatchObject({
      url_state: 'queued',
      applied_lease_id: dropped.applied_lease_id,
      object_id: dropped.object_id,
      etag: '"v1"',
      last_modified_at: '2026-08-01T00:00:00Z',
      fetched_at: '2026-08-14T07:00:00Z',
      last_rendered_at: '2026-08-14T07:00:01Z',
      discovered_at: timeTextOf(NOW_MS - 86_400_000),
      updated_at: timeTextOf(NOW_MS),
    });
  });

  it('has the fields of a stored url_task in their order: one shape for new and stored documents', () => {
    const made = newUrlTask(TARGET, QUEUED, NOW_MS);
    const stored = urlTaskCodec.decode(urlTaskCodec.encode(made));
    expect(Object.keys(made)).toEqual(Object.keys(stored));
  });
});
