import { backoffCeiling } from '../../common/backoff/exponential-backoff';
import type { DomainBook } from '../frontier/domain-book';
import type { DomainHealthDocument, PauseReason } from '../frontier/frontier-documents';
import type { FrontierTables } from '../frontier/frontier-tables';
import { ceilingTimeTextOf, msOfTimeText, timeTextOf } from '../frontier/time-text';
import type { DomainHealthState, ReportResult } from '../frontier/wire-types';
import type { WriteBatch } from '../frontier/write-batch';
import {
  emptyWindow,
  findPauseReason,
  observationOfResult,
  slide,
  windowSums,
  type HealthThresholds,
} from './health-window';

/** How long paused domains wait between probes (configuration, see README). */
export interface ProbeSchedule {
  /** Wait before the first probe; doubles after each probe that finds the origin still unhealthy. */
  pauseSeconds: number;
  maxPauseSeconds: number;
  /** Wait after a probe that never reached the origin (our side's limit or failure): no backoff. */
  probeRetrySeconds: number;
}

export type ProbeOutcome =
  { hasReachedOrigin: false } | { hasReachedOrigin: true; isHealthy: boolean };

export interface HealthObservation {
  domain: string;
  url: string;
  result: ReportResult;
}

/** Hooks for metrics and logs. */
export interface HealthEvents {
  onPaused(domain: string, reason: PauseReason): void;
  onResumed(domain: string): void;
}

export interface DomainHealthMonitorDependencies {
  tables: FrontierTables;
  book: DomainBook;
  thresholds: HealthThresholds;
  schedule: ProbeSchedule;
  events: HealthEvents;
}

/**
 * The availability circuit breaker (`scheduler:domain_health_runtime`, sole writer). Healthy domains
 * feed a sliding window of report results; a ratio over its threshold pauses the domain — it leaves
 * the ready queue — until a probe through the downloader finds the origin healthy again, at growing
 * intervals. A probe that never reached the origin neither grows the interval nor counts.
 *
 * State changes (pause, probe, resume) are staged into the caller's batch. Window updates stay in
 * memory: writing them would cost a row per result, and a `_runtime` table may be lost and rebuilt —
 * after a restart a window refills from new results, which only delays a pause. Callers hold the
 * mutation lock.
 */
export class DomainHealthMonitor {
  readonly #rows = new Map<string, DomainHealthDocument>();
  /** Domains not healthy (paused or probing): the prober's work list. */
  readonly #unhealthy = new Set<string>();

  constructor(private readonly dependencies: DomainHealthMonitorDependencies) {}

  /** Start-up: a probe interrupted by a restart is simply due again. */
  load(row: DomainHealthDocument): void {
    const loaded: DomainHealthDocument =
      row.domain_health_state === 'probing' ? { ...row, domain_health_state: 'paused' } : row;
    this.#rows.set(loaded.domain, loaded);
    if (loaded.domain_health_state !== 'healthy') {
      this.#unhealthy.add(loaded.domain);
      this.dependencies.book.obtain(loaded.domain).isPaused = true;
    }
  }

  stateOf(domain: string): { state: DomainHealthState; pausedUntilAt: string | null } {
    const row = this.#rows.get(domain);
    return {
      state: row?.domain_health_state ?? 'healthy',
      pausedUntilAt: row?.paused_until_at ?? null,
    };
  }

  unhealthyDomains(): ReadonlySet<string> {
    return this.#unhealthy;
  }

  /** Feeds report results to the windows; pauses are staged into `batch` (written at once). */
  observe(batch: WriteBatch, observations: readonly HealthObservation[], nowMs: number): void {
    const paused: DomainHealthDocument[] = [];
    const updatedAt = timeTextOf(nowMs);
    for (const { domain, url, result } of observations) {
      let row = this.#rows.get(domain);
      if (row === undefined) {
        row = healthyRow(domain, nowMs);
        this.#rows.set(domain, row);
      }
      if (row.domain_health_state !== 'healthy') continue; // in-flight stragglers of a paused domain
      // A healthy row is this monitor's alone — never staged, only its copies are (#pause) — so
      // its window is updated in place: a new row and window per result (every result of every
      // report) lived until the domain's next result, seconds later, in the old generation.
      slide(row, observationOfResult(result), this.dependencies.thresholds);
      row.updated_at = updatedAt;
      const reason = findPauseReason(windowSums(row), this.dependencies.thresholds);
      if (reason !== null) paused.push(this.#pause(row, reason, url, nowMs));
    }
    this.#stage(batch, paused);
  }

  /** Paused domains whose next probe is due, marked probing (written) before the probe goes out. */
  beginDueProbes(batch: WriteBatch, nowMs: number, limit: number): DomainHealthDocument[] {
    const due: DomainHealthDocument[] = [];
    for (const domain of this.#unhealthy) {
      if (due.length >= limit) break;
      const row = this.#rows.get(domain);
      if (row?.domain_health_state !== 'paused') continue;
      if (row.paused_until_at !== null && msOfTimeText(row.paused_until_at) > nowMs) continue;
      due.push(this.#replace({ ...row, domain_health_state: 'probing' }, nowMs));
    }
    this.#stage(batch, due);
    return due;
  }

  finishProbe(batch: WriteBatch, domain: string, outcome: ProbeOutcome, nowMs: number): void {
    const row = this.#rows.get(domain);
    if (row === undefined || row.domain_health_state === 'healthy') return;
    let next: DomainHealthDocument;
    if (!outcome.hasReachedOrigin) {
      // Held back by our own limit or never connected: not the origin's fault (CONTRACT.md §二).
      next = {
        ...row,
        domain_health_state: 'paused',
        paused_until_at: this.#after(nowMs, this.dependencies.schedule.probeRetrySeconds),
      };
    } else if (outcome.isHealthy) {
      next = { ...healthyRow(domain, nowMs), last_probe_at: timeTextOf(nowMs) };
      this.#unhealthy.delete(domain);
      this.#setPaused(domain, { isPaused: false });
      this.dependencies.events.onResumed(domain);
    } else {
      const probeCount = row.probe_count + 1;
      next = {
        ...row,
        domain_health_state: 'paused',
        probe_count: probeCount,
        last_probe_at: timeTextOf(nowMs),
        paused_until_at: this.#after(nowMs, this.#pauseSecondsAfter(probeCount)),
      };
    }
    this.#stage(batch, [this.#replace(next, nowMs)]);
  }

  #pause(
    row: DomainHealthDocument,
    reason: PauseReason,
    url: string,
    nowMs: number,
  ): DomainHealthDocument {
    this.#unhealthy.add(row.domain);
    this.#setPaused(row.domain, { isPaused: true });
    this.dependencies.events.onPaused(row.domain, reason);
    return this.#replace(
      {
        ...row,
        domain_health_state: 'paused',
        pause_reason: reason,
        paused_at: timeTextOf(nowMs),
        paused_until_at: this.#after(nowMs, this.#pauseSecondsAfter(0)),
        probe_count: 0,
        probe_url: `${new URL(url).origin}/`,
      },
      nowMs,
    );
  }

  #pauseSecondsAfter(probeCount: number): number {
    const { pauseSeconds, maxPauseSeconds } = this.dependencies.schedule;
    return backoffCeiling({ initial: pauseSeconds, cap: maxPauseSeconds }, probeCount);
  }

  #after(nowMs: number, seconds: number): string {
    return ceilingTimeTextOf(nowMs + seconds * 1000);
  }

  #setPaused(domain: string, { isPaused }: { isPaused: boolean }): void {
    const schedule = this.dependencies.book.obtain(domain);
    schedule.isPaused = isPaused;
    this.dependencies.book.touch(schedule);
  }

  #replace(row: DomainHealthDocument, nowMs: number): DomainHealthDocument {
    const stamped = { ...row, updated_at: timeTextOf(nowMs) };
    this.#rows.set(row.domain, stamped);
    return stamped;
  }

  #stage(batch: WriteBatch, rows: DomainHealthDocument[]): void {
    for (const row of rows)
      batch.put(this.dependencies.tables.domainHealth, row.domain, row, 'documents');
  }
}

function healthyRow(domain: string, nowMs: number): DomainHealthDocument {
  return {
    domain,
    domain_health_state: 'healthy',
    current_window: emptyWindow(),
    previous_window: emptyWindow(),
    pause_reason: null,
    paused_at: null,
    paused_until_at: null,
    probe_count: 0,
    probe_url: null,
    last_probe_at: null,
    updated_at: timeTextOf(nowMs),
  };
}
