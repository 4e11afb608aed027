import { doneResult, failedResult, notModifiedResult } from '../testing/contract-fixtures';
import { storedFormOf, type UrlTaskDocument } from './frontier-documents';
import type { RuleSummary } from './rule-book';
import {
  afterLeaseExpiry,
  afterResult,
  leasedBy,
  type RecrawlPolicy,
} from './url-task-transitions';
import { FIXTURE_NOW_MS, queuedUrlTask } from '../testing/url-task-fixtures';

const policy: RecrawlPolicy = {
  maxAttemptCount: 3,
  retryBackoffSeconds: 60,
  maxRetryBackoffSeconds: 100,
  maxLeaseExpiryCount: 2,
  defaultRevisitIntervalSeconds: 1000,
  maxRevisitIntervalSeconds: 3000,
};
const nowMs = FIXTURE_NOW_MS;
const rule = { revisitIntervalSeconds: null } as RuleSummary;
const queuedTask = () => queuedUrlTask();

function leasedTask(overrides: Partial<UrlTaskDocument> = {}): UrlTaskDocument {
  return leasedBy({ ...queuedTask(), ...overrides });
}

describe('url_task transitions', () => {
  it('done: keeps the object and is due again after the revisit interval', () => {
    const next = afterResult(
      leasedTask(),
      doneResult(leasedTask()),
      rule,
      policy,
      'l-0000000000000001',
      nowMs,
    );
    expect(next).toMatchObject({
      url_state: 'done',
      applied_lease_id: 'l-0000000000000001',
      object_id: 'abcdefabcdefabcdefabcdefabcdefab',
      etag: '"v1"',
      due_at: '2026-08-15T07:16:40Z',
      revisit_interval_seconds: 1000,
    });
  });

  it('not_modified: keeps object and validators, doubles the interval up to its cap', () => {
    const task = leasedTask({
      object_id: 'ffffffffffffffffffffffffffffffff',
      etag: '"old"',
      revisit_interval_seconds: 2000,
    });
    const next = afterResult(
      task,
      notModifiedResult(task),
      rule,
      policy,
      'l-0000000000000001',
      nowMs,
    );
    expect(next).toMatchObject({
      url_state: 'done',
      object_id: 'ffffffffffffffffffffffffffffffff',
      etag: '"old"',
      revisit_interval_seconds: 3000,
    });
  });

  it('failed: retried with a growing, capped backoff, then parked', () => {
    const failAfter = (attemptCount: number) =>
      afterResult(
        leasedTask({ attempt_count: attemptCount }),
        failedResult(leasedTask(), 'navigation_timeout'),
        rule,
        policy,
        'l-0000000000000001',
        nowMs,
      );
    expect(failAfter(0)).toMatchObject({
      url_state: 'queued',
      attempt_count: 1,
      due_at: '2026-08-15T07:01:00Z',
    });
    expect(failAfter(1).due_at).toBe('2026-08-15T07:01:40Z'); // 120 s, capped at 100
    expect(failAfter(2)).toMatchObject({
      url_state: 'failed',
      park_reason: 'attempts_exhausted',
      fail_reason: 'navigation_timeout',
    });
  });

  it('parks after repeated lease expiries, re-queues before; both name the expired lease', () => {
    const expiredLease = 'l-00000000000000ee';
    expect(afterLeaseExpiry(leasedTask(), expiredLease, policy, nowMs)).toMatchObject({
      url_state: 'queued',
      lease_expiry_count: 1,
      is_in_due_index: true,
      applied_lease_id: expiredLease,
    });
    expect(
      afterLeaseExpiry(leasedTask({ lease_expiry_count: 1 }), expiredLease, policy, nowMs),
    ).toMatchObject({
      url_state: 'failed',
      park_reason: 'lease_expiries_exhausted',
      applied_lease_id: expiredLease,
    });
  });

  it('taking a URL into a lease changes only the view: its stored form is the queued document', () => {
    const queued = queuedTask();
    const leased = leasedBy(queued);
    expect(leased).toMatchObject({ url_state: 'leased', is_in_due_index: false });
    expect(storedFormOf(leased)).toEqual(queued);
  });
});
