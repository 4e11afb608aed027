import { conflict, notFound } from '../../common/contract-runtime/contract-error';
import type { DomainHealthMonitor, HealthObservation } from '../health/domain-health-monitor';
import type { BusyLeases } from './busy-leases';
import type { Clock } from './clock';
import type { FrontierActivity } from './frontier-activity';
import type { LeaseResultDocument, LeaseTaskDocument } from './frontier-documents';
import type { FrontierMutator } from './frontier-mutator';
import type { FrontierStore, UrlTaskChange } from './frontier-store';
import { leaseExpiryIndexKey, type FrontierTables } from './frontier-tables';
import type { LeaseReclaimer } from './lease-reclaimer';
import type { LinkIntake, PreparedLinks } from './link-intake';
import type { LiveLeaseRegistry } from './live-lease-registry';
import { assertFetchStatusTable, assertResultsMatchLease } from './report-validation';
import type { RuleBook } from './rule-book';
import { msOfTimeText, timeTextOf } from './time-text';
import { afterResult, requeued, type RecrawlPolicy } from './url-task-transitions';
import {
  FETCH_STATUSES,
  type FetchStatus,
  type ReportRequest,
  type ReportResponse,
  type ReportResult,
} from './wire-types';
import type { WriteBatch } from './write-batch';

/** Hooks for metrics. */
export interface ReportEvents {
  onApplied(statusCounts: ReadonlyMap<FetchStatus, number>): void;
  onStale(): void;
}

interface AppliedReport {
  acceptedCount: number;
  requeuedCount: number;
  statusCounts: Map<FetchStatus, number>;
}

/** What the first step of a report decided. */
type ReportDecision =
  | { kind: 'answered'; response: ReportResponse }
  | { kind: 'stale'; lease: LeaseTaskDocument }
  | { kind: 'applied'; lease: LeaseTaskDocument; applied: AppliedReport; nowMs: number };

/**
 * POST /v1/report, idempotent by lease_id with the method of seed 002:
 *
 *   - the key travels in the payload (lease_id);
 *   - a cheap pre-check first: a stored answer for this lease_id is answered again at once, before
 *     any other work (and before queueing for the mutation lock);
 *   - the backstop: each URL moves on only by a transition from "leased by this lease", so a
 *     repeat — or a race with the reclaimer — finds nothing left to move, and decrements, links
 *     and health signals are consumed exactly once; the answer is stored by compare-and-swap
 *     (absent → answer), and losing that swap means "already done: answer the stored result",
 *     never an error and never a retry storm.
 *
 * Three steps, each durable before the next: (1) the results applied (links admitted, URLs moved
 * on); (2) the answer swapped in; (3) the report recorded and the lease forgotten — only by the
 * winner of the swap, so it is counted once. A crash after (1) is repaired by the retried report:
 * the URLs it moved are recognized by `applied_lease_id` and counted, not applied again.
 *
 * A report arriving after expires_at reclaims the lease on the spot and answers the stale answer:
 * nothing of the report is applied (CONTRACT.md §三, late report).
 */
export class ReportApplier {
  constructor(
    private readonly mutator: FrontierMutator,
    private readonly clock: Clock,
    private readonly tables: FrontierTables,
    private readonly store: FrontierStore,
    private readonly rules: RuleBook,
    private readonly linkIntake: LinkIntake,
    private readonly health: DomainHealthMonitor,
    private readonly reclaimer: LeaseReclaimer,
    private readonly liveLeases: LiveLeaseRegistry,
    private readonly busyLeases: BusyLeases,
    private readonly activity: FrontierActivity,
    private readonly policy: RecrawlPolicy,
    private readonly leaseResultTtlSeconds: number,
    private readonly events: ReportEvents,
  ) {}

  async report(request: ReportRequest): Promise<ReportResponse> {
    assertFetchStatusTable(request.result_list);
    const answered = await this.#storedAnswer(request);
    if (answered !== undefined) return this.#countedIfStale(answered);
    // Pure work (normalizing and hashing every link) before queueing for the lock.
    const preparedLinks = this.linkIntake.prepare(request.result_list);

    let isHeld = false;
    try {
      const decision = await this.mutator.run(async () => {
        const answeredMeanwhile = await this.#storedAnswer(request);
        if (answeredMeanwhile !== undefined) {
          return {
            result: { kind: 'answered', response: answeredMeanwhile } as ReportDecision,
            durable: Promise.resolve(),
          };
        }
        const lease = await this.tables.leaseTasks.get(request.lease_id);
        if (lease === undefined) {
          throw notFound(
            'lease_not_found',
            `no lease ${request.lease_id} was issued (or its answer expired)`,
          );
        }
        assertWorker(lease.worker_id, request);
        assertResultsMatchLease(lease, request.result_list);
        // From here until this report is done, the reclaimer leaves the lease alone.
        this.busyLeases.hold(lease.lease_id);
        isHeld = true;
        const nowMs = this.clock.nowMs();
        return this.store.commitStaged(async (batch): Promise<ReportDecision> => {
          if (nowMs >= msOfTimeText(lease.expires_at)) {
            await this.reclaimer.stageReclaim(batch, lease, nowMs);
            this.#stageRecord(batch, lease, true, countStatuses(request.result_list), nowMs);
            this.events.onStale();
            return { kind: 'stale', lease };
          }
          return {
            kind: 'applied',
            lease,
            applied: await this.#stageApply(batch, lease, request, preparedLinks, nowMs),
            nowMs,
          };
        });
      });
      if (decision.kind === 'answered') return this.#countedIfStale(decision.response);
      if (decision.kind === 'stale') {
        return (await this.#storedAnswer(request)) ?? staleAnswer(decision.lease.lease_id);
      }
      return await this.#answer(decision.lease, decision.applied, decision.nowMs);
    } finally {
      if (isHeld) this.busyLeases.release(request.lease_id);
    }
  }

  async #answer(
    lease: LeaseTaskDocument,
    applied: AppliedReport,
    nowMs: number,
  ): Promise<ReportResponse> {
    const answer: LeaseResultDocument = {
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      is_stale_lease: false,
      accepted_count: applied.acceptedCount,
      requeued_count: applied.requeuedCount,
      answered_at: timeTextOf(nowMs),
    };
    const swap = await this.tables.leaseResults.compareAndSwap(lease.lease_id, undefined, answer, {
      ttlSeconds: this.leaseResultTtlSeconds,
    });
    if (!swap.isSwapped && swap.previous !== undefined) return responseOf(swap.previous);
    await this.mutator.run(() =>
      this.store.commitStaged((batch) => {
        this.#stageRecord(batch, lease, false, applied.statusCounts, nowMs);
        batch.delete(this.tables.leaseTasks, lease.lease_id);
        batch.delete(
          this.tables.leaseExpiryIndex,
          leaseExpiryIndexKey(lease.expires_at, lease.lease_id),
        );
        this.liveLeases.remove(lease.lease_id);
        this.events.onApplied(applied.statusCounts);
      }),
    );
    return responseOf(answer);
  }

  /**
   * A report answered from a stored stale answer (its lease was reclaimed before it arrived, or it
   * is a repeat of a late report) is still a late report: count it like one.
   */
  #countedIfStale(response: ReportResponse): ReportResponse {
    if (response.is_stale_lease) this.events.onStale();
    return response;
  }

  async #storedAnswer(request: ReportRequest): Promise<ReportResponse | undefined> {
    const stored = await this.tables.leaseResults.get(request.lease_id);
    if (stored === undefined) return undefined;
    assertWorker(stored.worker_id, request);
    return responseOf(stored);
  }

  async #stageApply(
    batch: WriteBatch,
    lease: LeaseTaskDocument,
    request: ReportRequest,
    preparedLinks: PreparedLinks,
    nowMs: number,
  ): Promise<AppliedReport> {
    const resultsByHash = new Map<string, ReportResult>();
    for (const result of request.result_list) {
      if (!resultsByHash.has(result.url_hash)) resultsByHash.set(result.url_hash, result);
    }
    const tasks = await this.store.readUrlTasks(lease.task_list.map((task) => task.url_hash));
    const applied: AppliedReport = { acceptedCount: 0, requeuedCount: 0, statusCounts: new Map() };
    const changes: UrlTaskChange[] = [];
    const appliedUrlHashes: string[] = [];
    const observations: HealthObservation[] = [];
    for (const task of tasks) {
      if (task === undefined) continue;
      const result = resultsByHash.get(task.url_hash);
      const isHeldByLease = task.url_state === 'leased' && task.lease_id === lease.lease_id;
      if (!isHeldByLease) {
        // Moved on by an earlier copy of this same report (lost before its answer was stored):
        // counted again, applied never.
        if (task.applied_lease_id === lease.lease_id) {
          if (result === undefined) applied.requeuedCount += 1;
          else applied.acceptedCount += 1;
        }
        continue;
      }
      if (result === undefined) {
        changes.push({ previous: task, next: requeued(task, lease.lease_id, nowMs) });
        applied.requeuedCount += 1;
        continue;
      }
      const rule = this.rules.get(task.domain);
      changes.push({
        previous: task,
        next: afterResult(task, result, rule, this.policy, lease.lease_id, nowMs),
      });
      applied.acceptedCount += 1;
      applied.statusCounts.set(
        result.fetch_status,
        (applied.statusCounts.get(result.fetch_status) ?? 0) + 1,
      );
      appliedUrlHashes.push(task.url_hash);
      observations.push({ domain: task.domain, url: task.url, result });
    }
    // One batch: the links and the transitions. On a backend without atomic batches the new link
    // documents become durable before the transitions (WriteBatch phases), so a crash in between
    // cannot lose links: the retried report finds the moved URLs no longer held, and their links
    // already stored.
    await this.linkIntake.stage(batch, preparedLinks, appliedUrlHashes, nowMs);
    this.store.stage(batch, changes);
    this.health.observe(batch, observations, nowMs);
    return applied;
  }

  #stageRecord(
    batch: WriteBatch,
    lease: LeaseTaskDocument,
    isStaleLease: boolean,
    statusCounts: ReadonlyMap<FetchStatus, number>,
    nowMs: number,
  ): void {
    this.activity.stageReport(batch, {
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      received_at: timeTextOf(nowMs),
      is_stale_lease: isStaleLease,
      status_count_list: FETCH_STATUSES.filter((status) => statusCounts.has(status)).map(
        (status) => ({
          fetch_status: status,
          result_count: statusCounts.get(status) ?? 0,
        }),
      ),
    });
  }
}

function assertWorker(leaseWorkerId: string, request: ReportRequest): void {
  if (leaseWorkerId !== request.worker_id) {
    throw conflict(
      'lease_worker_mismatch',
      `lease ${request.lease_id} belongs to worker ${leaseWorkerId}, not ${request.worker_id}`,
    );
  }
}

function countStatuses(results: readonly ReportResult[]): Map<FetchStatus, number> {
  const counts = new Map<FetchStatus, number>();
  for (const result of results)
    counts.set(result.fetch_status, (counts.get(result.fetch_status) ?? 0) + 1);
  return counts;
}

function responseOf(stored: LeaseResultDocument): ReportResponse {
  return {
    lease_id: stored.lease_id,
    is_stale_lease: stored.is_stale_lease,
    accepted_count: stored.accepted_count,
    requeued_count: stored.requeued_count,
  };
}

function staleAnswer(leaseId: string): ReportResponse {
  return { lease_id: leaseId, is_stale_lease: true, accepted_count: 0, requeued_count: 0 };
}
