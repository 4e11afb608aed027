import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { queuedUrlTask, spreadUrlHashOf } from '../testing/url-task-fixtures';
import type { LeaseTaskDocument } from './frontier-documents';
import { LeaseBook } from './lease-book';
import { leasedBy } from './url-task-transitions';

function leaseOf(leaseId: string, expiresAt: string, firstUrl: number): LeaseTaskDocument {
  return {
    lease_id: leaseId,
    worker_id: 'worker-1',
    leased_at: '2026-08-15T06:00:00Z',
    expires_at: expiresAt,
    task_list: [0, 1].map((offset) => ({
      url_hash: spreadUrlHashOf(firstUrl + offset),
      domain: 'a.example',
    })),
  };
}

function heldOf(lease: LeaseTaskDocument) {
  return lease.task_list.map(({ url_hash }) => leasedBy(queuedUrlTask({ url_hash })));
}

describe('LeaseBook', () => {
  it('answers the live leases expired by a time, earliest first, and keeps them until removed', () => {
    const book = new LeaseBook();
    const late = leaseOf('late', '2026-08-15T06:02:00Z', 0);
    const early = leaseOf('early', '2026-08-15T06:01:00Z', 10);
    const reported = leaseOf('reported', '2026-08-15T06:00:30Z', 20);
    for (const lease of [late, early, reported]) book.add(lease, heldOf(lease));
    book.remove('reported');

    const at = Date.parse('2026-08-15T06:03:00Z');
    expect(book.earliestExpiryMs()).toBe(Date.parse('2026-08-15T06:01:00Z'));
    expect(book.expiredBy(at, 10).map((lease) => lease.document.lease_id)).toEqual([
      'early',
      'late',
    ]);
    expect(book.expiredBy(at, 1).map((lease) => lease.document.lease_id)).toEqual(['early']);
    expect(book.holderOf(spreadUrlHashOf(10))).toBe('early');
    expect(book.holderOf(spreadUrlHashOf(20))).toBeUndefined();
    book.remove('early');
    book.remove('late');
    expect(book.expiredBy(at, 10)).toEqual([]);
    expect(book.earliestExpiryMs()).toBe(Number.POSITIVE_INFINITY);
    expect(book.count).toBe(0);
  });

  it('lets a removed lease and its documents be collected before its expiry comes round', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const book = new LeaseBook();
    const kept = leaseOf('kept', '2026-08-15T06:01:00Z', 0);
    book.add(kept, heldOf(kept));
    const reported = leaseOf('reported', '2026-08-15T06:05:00Z', 10);
    const held = new WeakRef(book.add(reported, heldOf(reported)).heldTasks);
    book.remove('reported');
    // WeakRefs are cleared only after the job that made them ends.
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    expect(held.deref()).toBeUndefined();
    expect(book.expiredBy(Date.parse('2026-08-15T06:10:00Z'), 10)).toHaveLength(1);
  });
});
