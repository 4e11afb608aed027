import type { BusyLeases } from './busy-leases';
import type { FrontierActivity } from './frontier-activity';
import type { LeaseResultDocument, LeaseTaskDocument } from './frontier-documents';
import type { FrontierStore, UrlTaskChange } from './frontier-store';
import { leaseExpiryIndexKey, type FrontierTables } from './frontier-tables';
import type { LiveLeaseRegistry } from './live-lease-registry';
import { msOfTimeText, timeTextOf } from './time-text';
import { afterLeaseExpiry, type RecrawlPolicy } from './url-task-transitions';
import type { WriteBatch } from './write-batch';

/**
 * Reclaims expired leases — the only mechanism that saves URLs from a crashed downloader. For each
 * lease past expires_at: every URL still held by it goes back to its domain's queue (or is parked
 * once leases keep expiring on it), the stale answer is stored as the lease's result so a late
 * report gets `is_stale_lease: true` and changes nothing, and the lease is forgotten. Every step is
 * idempotent, so a crash in the middle is repaired by running it again. Callers hold the lock.
 */
export class LeaseReclaimer {
  constructor(
    private readonly tables: FrontierTables,
    private readonly store: FrontierStore,
    private readonly liveLeases: LiveLeaseRegistry,
    private readonly busyLeases: BusyLeases,
    private readonly activity: FrontierActivity,
    private readonly policy: RecrawlPolicy,
    private readonly leaseResultTtlSeconds: number,
    private readonly onReclaimed: () => void,
  ) {}

  /** Stages the reclaim of up to `limit` leases expired by `nowMs`; resolves to how many. */
  async reclaimDue(batch: WriteBatch, nowMs: number, limit: number): Promise<number> {
    const page = await this.tables.leaseExpiryIndex.scan({ limit });
    let handledCount = 0;
    for (const row of page.rows) {
      const [expiresAt, leaseId] = row.primaryKey.parts;
      if (msOfTimeText(expiresAt) > nowMs) break;
      if (this.busyLeases.isBusy(leaseId)) continue;
      const lease = await this.tables.leaseTasks.get(leaseId);
      if (lease === undefined) {
        batch.delete(this.tables.leaseExpiryIndex, row.primaryKey); // reported: a leftover entry
      } else {
        await this.stageReclaim(batch, lease, nowMs);
      }
      handledCount += 1;
    }
    return handledCount;
  }

  /**
   * The stale answer is stored (durably) first: from then on a late report is answered stale
   * whatever happens next. If the process dies before the batch is durable, the lease record is
   * still there and the next run reclaims it again (the swap then finds the answer stored).
   */
  async stageReclaim(batch: WriteBatch, lease: LeaseTaskDocument, nowMs: number): Promise<void> {
    const reclaimedAt = timeTextOf(nowMs);
    const staleAnswer: LeaseResultDocument = {
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      is_stale_lease: true,
      accepted_count: 0,
      requeued_count: 0,
      answered_at: reclaimedAt,
    };
    // Absent → stale answer; an answer stored before (a report that won) stays.
    await this.tables.leaseResults.compareAndSwap(lease.lease_id, undefined, staleAnswer, {
      ttlSeconds: this.leaseResultTtlSeconds,
    });
    const tasks = await this.store.readUrlTasks(lease.task_list.map((task) => task.url_hash));
    const changes: UrlTaskChange[] = [];
    for (const task of tasks) {
      if (task?.url_state === 'leased' && task.lease_id === lease.lease_id) {
        changes.push({ previous: task, next: afterLeaseExpiry(task, this.policy, nowMs) });
      }
    }
    const parkedCount = changes.filter(({ next }) => next.url_state === 'failed').length;
    this.store.stage(batch, changes);
    this.activity.stageExpiry(batch, {
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      reclaimed_at: reclaimedAt,
      requeued_count: changes.length - parkedCount,
      parked_count: parkedCount,
    });
    batch.delete(this.tables.leaseTasks, lease.lease_id);
    batch.delete(
      this.tables.leaseExpiryIndex,
      leaseExpiryIndexKey(lease.expires_at, lease.lease_id),
    );
    this.busyLeases.hold(lease.lease_id);
    batch.afterDurable(() => this.busyLeases.release(lease.lease_id));
    this.liveLeases.remove(lease.lease_id);
    this.onReclaimed();
  }
}
