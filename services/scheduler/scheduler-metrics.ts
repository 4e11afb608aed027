import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { PauseReason } from './frontier/frontier-documents';
import type { PlacedChange, UrlTaskChangeListener } from './frontier/frontier-store';
import type { LinkOutcome } from './frontier/link-intake';
import { URL_STATES, type FetchStatus } from './frontier/wire-types';

/** What the gauges read when Prometheus scrapes (so nothing is computed on the hot path). */
export interface FrontierGaugeSources {
  urlCount(state: (typeof URL_STATES)[number]): number;
  liveLeaseCount(): number;
  readyDomainCount(): number;
  unhealthyDomainCount(): number;
  mutationQueueDepth(): number;
  parkedLeaseCount(): number;
  /** Memory of the in-memory url_hash set; 0 until it is complete (presence read from storage). */
  knownUrlByteCount(): number;
  /** Threads preparing reported links; 0 when the main thread does (set so, or after a failure). */
  linkPreparationThreadCount(): number;
}

/**
 * The scheduler's Prometheus metrics (beside the contract router's request metrics), registered on
 * the service's registry so /metrics serves them.
 */
export class SchedulerMetrics implements UrlTaskChangeListener {
  readonly #leasedTasks: Counter;
  readonly #reportResults: Counter<'fetch_status'>;
  readonly #staleReports: Counter;
  readonly #reclaimedLeases: Counter;
  readonly #parkedUrls: Counter<'park_reason' | 'fail_reason'>;
  readonly #links: Counter<'outcome'>;
  readonly #probes: Counter<'outcome'>;
  readonly #pauses: Counter<'pause_reason'>;
  readonly #negativeCountsPrevented: Counter;
  readonly #linkPreparationsRedone: Counter;
  readonly #commitBatches: Histogram;
  readonly #commitDuration: Histogram;

  constructor(registry: Registry, sources: FrontierGaugeSources) {
    const registers = [registry];
    const counter = <Label extends string>(name: string, help: string, labelNames: Label[] = []) =>
      new Counter<Label>({ name, help, labelNames, registers });
    this.#leasedTasks = counter('scheduler_leased_task_total', 'URLs handed out in leases.');
    this.#reportResults = counter(
      'scheduler_report_result_total',
      'Report results applied to the frontier, by fetch_status.',
      ['fetch_status'],
    );
    this.#staleReports = counter(
      'scheduler_stale_report_total',
      'Reports that arrived after their lease expired (answered is_stale_lease, nothing applied).',
    );
    this.#reclaimedLeases = counter(
      'scheduler_reclaimed_lease_total',
      'Leases reclaimed after expiry (their downloader crashed, hung or reported late).',
    );
    this.#parkedUrls = counter(
      'scheduler_parked_url_total',
      'URLs parked as failed, by reason and the last fail_reason ("none" when there was none).',
      ['park_reason', 'fail_reason'],
    );
    this.#links = counter(
      'scheduler_link_total',
      'Links of applied reports, by what became of them.',
      ['outcome'],
    );
    this.#probes = counter(
      'scheduler_probe_total',
      'Probes of paused domains, by outcome (not_reached is never counted against a domain).',
      ['outcome'],
    );
    this.#pauses = counter(
      'scheduler_domain_pause_total',
      'Domains paused by the availability circuit breaker, by the ratio that tripped it.',
      ['pause_reason'],
    );
    this.#negativeCountsPrevented = counter(
      'scheduler_negative_count_prevented_total',
      'Decrements refused because a counter was already 0 (should stay 0; a bug signal).',
    );
    this.#linkPreparationsRedone = counter(
      'scheduler_link_preparation_redone_total',
      "Reports whose links the HTTP thread prepared in a form that did not line up with them, prepared again on the main thread's side (should stay 0; a bug signal).",
    );
    this.#commitBatches = new Histogram({
      name: 'scheduler_commit_batch_count',
      help: 'Mutation batches per storage commit (group commit: those decided while the previous commit was written; 1 when commits are pipelined, where the backend groups them).',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128],
      registers,
    });
    this.#commitDuration = new Histogram({
      name: 'scheduler_commit_duration_seconds',
      help: 'Time to make one commit durable: every request it carries waits this long after being decided (pipelined: one batch, from its decision to its acknowledgement).',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('scheduler_live_lease_count', 'Leases issued and neither reported nor reclaimed.', () =>
      sources.liveLeaseCount(),
    );
    gauge('scheduler_ready_domain_count', 'Domains that can be served now or soon.', () =>
      sources.readyDomainCount(),
    );
    gauge('scheduler_unhealthy_domain_count', 'Domains paused or being probed.', () =>
      sources.unhealthyDomainCount(),
    );
    gauge('scheduler_mutation_queue_depth', 'Mutations waiting for the frontier lock.', () =>
      sources.mutationQueueDepth(),
    );
    gauge(
      'scheduler_parked_lease_count',
      'Lease calls held by long polling (wait_ms) until work is due.',
      () => sources.parkedLeaseCount(),
    );
    gauge(
      'scheduler_known_url_bytes',
      'Memory of the in-memory set of known url_hashes (link de-duplication); 0 while it is still read from url_task after start-up.',
      () => sources.knownUrlByteCount(),
    );
    gauge(
      'scheduler_link_preparation_thread_count',
      'Threads normalizing and hashing reported links; 0 when the main thread does it (set so, or after a thread failed).',
      () => sources.linkPreparationThreadCount(),
    );
    new Gauge({
      name: 'scheduler_frontier_url_count',
      help: 'URLs in the frontier by url_state.',
      labelNames: ['url_state'],
      registers,
      collect() {
        for (const state of URL_STATES) this.set({ url_state: state }, sources.urlCount(state));
      },
    });
  }

  onUrlTaskChanged({ previous, next }: PlacedChange): void {
    if (
      next.url_state === 'failed' &&
      previous?.url_state !== 'failed' &&
      next.park_reason !== null
    ) {
      this.#parkedUrls.inc({
        park_reason: next.park_reason,
        fail_reason: next.fail_reason ?? 'none',
      });
    }
  }

  leasedTasks(count: number): void {
    this.#leasedTasks.inc(count);
  }

  reportResults(counts: ReadonlyMap<FetchStatus, number>): void {
    for (const [status, count] of counts) this.#reportResults.inc({ fetch_status: status }, count);
  }

  staleReport(): void {
    this.#staleReports.inc();
  }

  leaseReclaimed(): void {
    this.#reclaimedLeases.inc();
  }

  links(outcome: LinkOutcome, count: number): void {
    this.#links.inc({ outcome }, count);
  }

  probe(outcome: 'healthy' | 'unhealthy' | 'not_reached'): void {
    this.#probes.inc({ outcome });
  }

  domainPaused(reason: PauseReason): void {
    this.#pauses.inc({ pause_reason: reason });
  }

  committed(batchCount: number, durationSeconds: number): void {
    this.#commitBatches.observe(batchCount);
    this.#commitDuration.observe(durationSeconds);
  }

  negativeCountPrevented(): void {
    this.#negativeCountsPrevented.inc();
  }

  linkPreparationRedone(): void {
    this.#linkPreparationsRedone.inc();
  }
}
