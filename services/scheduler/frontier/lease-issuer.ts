import type { Clock } from './clock';
import type { DomainPicker, PickOutcome } from './domain-picker';
import type { LeaseTaskDocument } from './frontier-documents';
import type { FrontierMutator } from './frontier-mutator';
import type { FrontierStore } from './frontier-store';
import { EMPTY_INDEX_ENTRY, leaseExpiryIndexKey, type FrontierTables } from './frontier-tables';
import { newLeaseId } from './lease-ids';
import type { LiveLeaseRegistry } from './live-lease-registry';
import { ceilingToSecondMs, timeTextOf } from './time-text';
import { leasedBy } from './url-task-transitions';
import type { LeaseResponse, LeaseTask } from './wire-types';
import type { WriteBatch } from './write-batch';

export interface LeaseRequest {
  workerId: string;
  taskCount: number;
  leaseTtlSeconds: number;
}

/**
 * Upkeep the lease path stages first into its own batch, bounded, so expired leases and due
 * re-visits never wait for a background tick.
 */
export type DueMaintenance = (batch: WriteBatch, nowMs: number) => Promise<void>;

/**
 * GET /v1/lease. Crash safety without a multi-key transaction comes from the write order of its
 * batch (see WriteBatch):
 *
 *   1. the lease record and its expiry-index entry — from here on the reclaimer can find the lease;
 *   2. the url_tasks, marked leased by this lease;
 *   3. their entries in their domains' queues, removed.
 *
 * A crash after 1 leaves URLs still queued under a lease nobody received: at expiry the reclaimer
 * finds none of them leased by it and just forgets the lease. A URL is only ever leased from the
 * queued state (as the overlay shows it, including mutations not yet durable), so it can never
 * belong to two live leases. The answer leaves only once the batch is durable.
 */
export class LeaseIssuer {
  constructor(
    private readonly mutator: FrontierMutator,
    private readonly clock: Clock,
    private readonly tables: FrontierTables,
    private readonly store: FrontierStore,
    private readonly picker: DomainPicker,
    private readonly liveLeases: LiveLeaseRegistry,
    private readonly runDueMaintenance: DueMaintenance,
    private readonly taskTimeoutMs: number,
  ) {}

  lease(request: LeaseRequest): Promise<LeaseResponse> {
    return this.mutator.run(async () => {
      const nowMs = this.clock.nowMs();
      const batch = this.store.batch();
      await this.runDueMaintenance(batch, nowMs);
      const leaseId = newLeaseId();
      const expiresAt = timeTextOf(ceilingToSecondMs(nowMs + request.leaseTtlSeconds * 1000));
      const outcome = await this.picker.pick(request.taskCount, nowMs);
      try {
        this.#stage(
          batch,
          outcome,
          {
            lease_id: leaseId,
            worker_id: request.workerId,
            leased_at: timeTextOf(nowMs),
            expires_at: expiresAt,
            task_list: outcome.picked.map(({ task }) => ({
              url_hash: task.url_hash,
              domain: task.domain,
            })),
          },
          nowMs,
        );
      } finally {
        this.picker.release(outcome);
      }
      const { durable } = await batch.commit();
      return {
        durable,
        result: {
          lease_id: leaseId,
          worker_id: request.workerId,
          expires_at: expiresAt,
          task_list: outcome.picked.map(({ task, rule }): LeaseTask => ({
            url: task.url,
            url_hash: task.url_hash,
            domain: task.domain,
            // Verbatim from the rule: never recomputed, never lowered (CONTRACT.md §二).
            min_interval_ms: rule.minIntervalMs,
            wait_selector: rule.waitSelector,
            timeout_ms: this.taskTimeoutMs,
            priority_rank: task.priority_rank ?? rule.priorityRank,
            etag: task.etag,
            last_modified_at: task.last_modified_at,
          })),
        },
      };
    }, true);
  }

  #stage(batch: WriteBatch, outcome: PickOutcome, lease: LeaseTaskDocument, nowMs: number): void {
    if (outcome.picked.length > 0) {
      // An empty lease is answered but never stored: it needs no report (CONTRACT.md §三).
      batch.put(this.tables.leaseTasks, lease.lease_id, lease, 'pointers');
      batch.put(
        this.tables.leaseExpiryIndex,
        leaseExpiryIndexKey(lease.expires_at, lease.lease_id),
        EMPTY_INDEX_ENTRY,
        'pointers',
      );
      this.liveLeases.add(lease.lease_id);
    }
    this.store.stage(batch, [
      ...outcome.picked.map(({ task }) => ({
        previous: task,
        next: leasedBy(task, lease.lease_id, nowMs),
      })),
      ...outcome.parked,
    ]);
    this.store.stageStaleEntries(batch, 'due', outcome.staleDueKeys);
  }
}
