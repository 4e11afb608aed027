import type { FrontierActivity } from './frontier-activity';
import type { LeaseResultDocument } from './frontier-documents';
import type { FrontierStore, UrlTaskChange } from './frontier-store';
import type { FrontierTables } from './frontier-tables';
import type { KnownAnswer, LeaseAnswers } from './lease-answers';
import type { LeaseBook, LiveLease } from './lease-book';
import { timeTextOf } from './time-text';
import { afterLeaseExpiry, type RecrawlPolicy } from './url-task-transitions';
import type { WriteBatch } from './write-batch';

export interface LeaseReclaimerDependencies {
  tables: FrontierTables;
  store: FrontierStore;
  leases: LeaseBook;
  answers: LeaseAnswers;
  activity: FrontierActivity;
  policy: RecrawlPolicy;
  onReclaimed: () => void;
}

/**
 * Reclaims expired leases — the only mechanism that saves URLs from a crashed downloader. For each
 * lease past expires_at: every URL it still holds goes back to its domain's queue (or is parked once
 * leases keep expiring on it), the stale answer is stored as the lease's answer so a late report
 * gets `is_stale_lease: true` and changes nothing, and the lease is forgotten — all in one batch,
 * in one mutation, so nothing can report or reclaim the lease in between. Each URL names the lease
 * as applied, so a reclaim repeated after a crash (start-up finds the lease again) changes nothing
 * twice. Callers hold the lock.
 */
export class LeaseReclaimer {
  constructor(private readonly dependencies: LeaseReclaimerDependencies) {}

  /** Stages the reclaim of up to `limit` leases expired by `nowMs`; resolves to how many. */
  async reclaimDue(batch: WriteBatch, nowMs: number, limit: number): Promise<number> {
    const expired = this.dependencies.leases.expiredBy(nowMs, limit);
    for (const lease of expired) await this.stageReclaim(batch, lease, nowMs);
    return expired.length;
  }

  async stageReclaim(batch: WriteBatch, lease: LiveLease, nowMs: number): Promise<KnownAnswer> {
    const { tables, store, leases, answers, activity, policy } = this.dependencies;
    const { document } = lease;
    const changes: UrlTaskChange[] = [];
    for (const task of lease.heldTasks.values()) {
      if (task.url_state === 'leased') {
        changes.push({
          previous: task,
          next: afterLeaseExpiry(task, document.lease_id, policy, nowMs),
        });
      }
    }
    const parkedCount = changes.filter(({ next }) => next.url_state === 'failed').length;
    const reclaimedAt = timeTextOf(nowMs);
    const staleAnswer: LeaseResultDocument = {
      lease_id: document.lease_id,
      worker_id: document.worker_id,
      is_stale_lease: true,
      accepted_count: 0,
      requeued_count: 0,
      answered_at: reclaimedAt,
    };
    store.stage(batch, changes);
    const answer = answers.stage(batch, staleAnswer);
    activity.stageExpiry(batch, {
      lease_id: document.lease_id,
      worker_id: document.worker_id,
      reclaimed_at: reclaimedAt,
      requeued_count: changes.length - parkedCount,
      parked_count: parkedCount,
    });
    batch.delete(tables.leaseTasks, document.lease_id);
    leases.remove(document.lease_id);
    this.dependencies.onReclaimed();
    return answer;
  }
}
