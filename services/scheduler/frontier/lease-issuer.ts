import { performance } from 'node:perf_hooks';
import type { Clock } from './clock';
import type { DomainPicker, PickOutcome } from './domain-picker';
import type { LeaseTaskDocument } from './frontier-documents';
import type { FrontierMutator } from './frontier-mutator';
import type { FrontierStore } from './frontier-store';
import type { FrontierTables } from './frontier-tables';
import { fetchPlanOf } from './lease-fetch-plan';
import { newLeaseId } from './lease-ids';
import type { LeaseBook } from './lease-book';
import type { LeaseWaiters } from './lease-waiters';
import { ceilingToSecondMs, timeTextOf } from './time-text';
import { leasedBy } from './url-task-transitions';
import type { LeaseResponse, LeaseTask } from './wire-types';
import type { WriteBatch } from './write-batch';

export interface LeaseRequest {
  workerId: string;
  taskCount: number;
  leaseTtlSeconds: number;
  /** Long poll: how long to hold the call while nothing is due (0: answer at once). */
  waitMs: number;
}

/**
 * Upkeep the lease path stages first into its own batch, bounded, so expired leases and due
 * re-visits never wait for a background tick.
 */
export type DueMaintenance = (batch: WriteBatch, nowMs: number) => Promise<void>;

export interface LeaseIssuerDependencies {
  mutator: FrontierMutator;
  clock: Clock;
  tables: FrontierTables;
  store: FrontierStore;
  picker: DomainPicker;
  leases: LeaseBook;
  waiters: LeaseWaiters;
  runDueMaintenance: DueMaintenance;
  /** `timeout_ms` of every task. */
  taskTimeoutMs: number;
  /** An api domain's URL is leased as render once its last render is this old (0: always). */
  apiLinkRenderIntervalMs: number;
}

/**
 * GET /v1/lease. A lease writes one thing: its record. The URLs' documents and their entries in
 * their domains' due queues stay as they are — the live lease record is what holds them (LeaseBook)
 * until a report or the reclaimer applies the lease to them, and the picker passes over held URLs.
 * So a lease is one small write, and there is no order of writes to get wrong: before the record is
 * durable the URLs are simply queued, after it they are held. A URL is only ever leased from its
 * due queue as the overlay shows it (including mutations not yet durable) and while no live lease
 * holds it, so it can never belong to two live leases. The answer leaves only once the record is
 * durable.
 *
 * With `waitMs`, a call that finds nothing due is parked (LeaseWaiters) and tries again when work
 * may be due, until its wait ends; each try is an ordinary lease mutation.
 */
export class LeaseIssuer {
  constructor(private readonly dependencies: LeaseIssuerDependencies) {}

  async lease(request: LeaseRequest): Promise<LeaseResponse> {
    const { waiters } = this.dependencies;
    const waitUntil = performance.now() + request.waitMs;
    for (;;) {
      const response = await this.#leaseOnce(request);
      const remainingMs = waitUntil - performance.now();
      if (response.task_list.length > 0 || remainingMs <= 0 || waiters.isStopped) return response;
      await waiters.wait(remainingMs);
    }
  }

  #leaseOnce(request: LeaseRequest): Promise<LeaseResponse> {
    const { mutator, clock, runDueMaintenance, picker } = this.dependencies;
    return mutator.run(async (batch) => {
      const nowMs = clock.nowMs();
      await runDueMaintenance(batch, nowMs);
      const leaseId = newLeaseId();
      const expiresAt = timeTextOf(ceilingToSecondMs(nowMs + request.leaseTtlSeconds * 1000));
      const outcome = await picker.pick(request.taskCount, nowMs, request.workerId);
      try {
        this.#stage(batch, outcome, {
          lease_id: leaseId,
          worker_id: request.workerId,
          leased_at: timeTextOf(nowMs),
          expires_at: expiresAt,
          task_list: outcome.picked.map(({ task }) => ({
            url_hash: task.url_hash,
            domain: task.domain,
          })),
        });
      } finally {
        picker.release(outcome);
      }
      return {
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
          timeout_ms: this.dependencies.taskTimeoutMs,
          priority_rank: task.priority_rank ?? rule.priorityRank,
          etag: task.etag,
          last_modified_at: task.last_modified_at,
          ...fetchPlanOf(task, rule, nowMs, this.dependencies.apiLinkRenderIntervalMs),
        })),
      };
    }, true);
  }

  #stage(batch: WriteBatch, outcome: PickOutcome, lease: LeaseTaskDocument): void {
    const { tables, leases, store } = this.dependencies;
    const taken = outcome.picked.map(({ task }) => ({ previous: task, next: leasedBy(task) }));
    if (taken.length > 0) {
      // An empty lease is answered but never stored: it needs no report (CONTRACT.md §三).
      batch.put(tables.leaseTasks, lease.lease_id, lease, 'pointers');
      leases.add(
        lease,
        taken.map(({ next }) => next),
      );
    }
    store.stage(batch, [...taken, ...outcome.parked]);
    store.stageStaleEntries(batch, 'due', outcome.staleDueKeys);
  }
}
