import type { OriginFetchResult } from '../fetching/origin-gateway';
import type { HoldReason } from '../rate-limit/rate-limit-vocabulary';
import { reportResultOf, type LeaseTask } from './report-results';

const TASK: LeaseTask = {
  url: 'https://news.example/a',
  url_hash: '0'.repeat(32),
  domain: 'news.example',
  min_interval_ms: 1000,
  wait_selector: null,
  timeout_ms: 30_000,
  priority_rank: 1,
  etag: '"v1"',
  last_modified_at: '2026-08-01T00:00:00Z',
};

function heldBack(holdReason: HoldReason): OriginFetchResult {
  return {
    kind: 'held_back',
    decision: {
      isGranted: false,
      holdReason,
      retryAfterMs: 5000,
      lastFailReason: 'origin_throttled',
    },
  };
}

describe('a task not attempted for a reason of ours is left out of the report (re-queued at once)', () => {
  it.each<HoldReason>(['interval', 'domain_in_flight', 'concurrency', 'stopping'])(
    '%s',
    (reason) => {
      expect(reportResultOf(TASK, heldBack(reason))).toBeUndefined();
    },
  );
});

describe('a task held back by the origin’s own failures is reported failed with that failure', () => {
  it.each<HoldReason>(['backing_off', 'paused'])('%s', (reason) => {
    expect(reportResultOf(TASK, heldBack(reason))).toMatchObject({
      fetch_status: 'failed',
      fail_reason: 'origin_throttled',
      object_id: null,
      statistics: null,
      health_signal: null,
      link_list: null,
      // A failure keeps the validators the task came with.
      etag: '"v1"',
      last_modified_at: '2026-08-01T00:00:00Z',
    });
  });
});

test('robots.txt and refused destinations are failures the scheduler can act on', () => {
  expect(reportResultOf(TASK, { kind: 'robots_disallowed', message: 'no' })).toMatchObject({
    fetch_status: 'failed',
    fail_reason: 'robots_disallowed',
  });
  expect(
    reportResultOf(TASK, {
      kind: 'refused',
      outcome: { kind: 'refused', refusalReason: 'destination_refused', message: 'private' },
    }),
  ).toMatchObject({ fetch_status: 'failed', fail_reason: 'connection_failed' });
});

test('not_modified carries the validators and nulls for everything rendered', () => {
  const result = reportResultOf(TASK, {
    kind: 'fetched',
    hasReachedOrigin: true,
    pageObject: undefined,
    outcome: {
      kind: 'not_modified',
      url: TASK.url,
      urlHash: TASK.url_hash,
      etag: '"v1"',
      lastModifiedAt: '2026-08-01T00:00:00Z',
      fetchedAt: '2026-08-15T07:47:52Z',
    },
  });
  expect(result).toEqual({
    url_hash: TASK.url_hash,
    url: TASK.url,
    fetch_status: 'not_modified',
    fail_reason: null,
    object_id: null,
    statistics: null,
    health_signal: null,
    link_list: null,
    etag: '"v1"',
    last_modified_at: '2026-08-01T00:00:00Z',
    fetched_at: '2026-08-15T07:47:52Z',
    // How the page was fetched (v2): the default when the caller does not say.
    render_strategy: 'render',
  });
});
