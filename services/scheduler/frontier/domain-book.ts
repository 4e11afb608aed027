import type { UrlTaskDocument } from './frontier-documents';
import type { UrlTaskChangeListener } from './frontier-store';
import { placementOf } from './index-placement';
import { DomainSchedule } from './domain-schedule';
import { ReadyDomainQueue } from './ready-domain-queue';
import type { RuleBook } from './rule-book';
import { msOfTimeText } from './time-text';

/**
 * Every domain's dequeue state, and the ready queue derived from it. It follows committed url_task
 * changes (in-flight and due counts, queue heads), so the counters are exact by construction: a
 * URL leaves `leased` at most once per lease, hence in-flight counts cannot be decremented twice —
 * and they are clamped at zero besides, with the clamp counted as an anomaly.
 */
export class DomainBook implements UrlTaskChangeListener {
  readonly #schedules = new Map<string, DomainSchedule>();
  readonly ready = new ReadyDomainQueue();
  /** Schedules whose domain_runtime row is behind memory. */
  readonly #runtimeDirty = new Set<DomainSchedule>();
  /** While the start-up scan replays url_task, readiness is derived once at the end. */
  #isLoading = false;

  constructor(
    private readonly rules: RuleBook,
    private readonly inFlightCap: number,
    private readonly onNegativeCountPrevented: (domain: string) => void,
  ) {}

  get(domain: string): DomainSchedule | undefined {
    return this.#schedules.get(domain);
  }

  obtain(domain: string): DomainSchedule {
    let schedule = this.#schedules.get(domain);
    if (schedule === undefined) {
      schedule = new DomainSchedule(domain);
      this.#schedules.set(domain, schedule);
    }
    return schedule;
  }

  all(): IterableIterator<DomainSchedule> {
    return this.#schedules.values();
  }

  beginLoading(): void {
    this.#isLoading = true;
  }

  finishLoading(): void {
    this.#isLoading = false;
    for (const schedule of this.#schedules.values()) this.touch(schedule);
  }

  onUrlTaskChanged(previous: UrlTaskDocument | undefined, next: UrlTaskDocument): void {
    const schedule = this.obtain(next.domain);
    if (previous?.url_state === 'leased' && next.url_state !== 'leased') {
      schedule.inFlightCount = this.#decremented(schedule, schedule.inFlightCount);
      this.markRuntimeDirty(schedule);
    } else if (previous?.url_state !== 'leased' && next.url_state === 'leased') {
      schedule.inFlightCount += 1;
      this.markRuntimeDirty(schedule);
    }
    const before = previous === undefined ? undefined : placementOf(previous);
    const after = placementOf(next);
    const wasDue = before?.indexName === 'due';
    const isDue = after?.indexName === 'due';
    if (wasDue && !isDue) {
      schedule.dueCount = this.#decremented(schedule, schedule.dueCount);
      if (schedule.dueCount === 0) schedule.head = null;
    } else if (!wasDue && isDue) {
      schedule.dueCount += 1;
    }
    if (after?.indexName === 'due' && !before?.key.equals(after.key)) {
      schedule.offerHead({ rank: after.rank, dueAtMs: msOfTimeText(next.due_at) });
    }
    if (!this.#isLoading) this.touch(schedule);
  }

  markRuntimeDirty(schedule: DomainSchedule): void {
    this.#runtimeDirty.add(schedule);
  }

  /** The schedules changed since the last call (for the write-behind of domain_runtime). */
  takeRuntimeDirty(): DomainSchedule[] {
    const dirty = [...this.#runtimeDirty];
    this.#runtimeDirty.clear();
    return dirty;
  }

  /**
   * Re-derives whether the domain can be served and when: it needs a crawlable rule, no pause, a
   * due URL and a free in-flight slot; it is available once its interval has passed and its head
   * is due.
   */
  touch(schedule: DomainSchedule): void {
    const rule = this.rules.get(schedule.domain);
    const isEligible =
      rule !== undefined &&
      rule.isCrawlable &&
      !schedule.isPaused &&
      schedule.head !== null &&
      schedule.inFlightCount + schedule.pendingLeaseCount < this.inFlightCap;
    if (!isEligible || schedule.head === null) {
      this.ready.withdraw(schedule);
      return;
    }
    const availableAtMs = Math.max(schedule.nextDequeueAtMs, schedule.head.dueAtMs);
    if (
      schedule.readyRank === schedule.head.rank &&
      schedule.readyAvailableAtMs === availableAtMs
    ) {
      return;
    }
    this.ready.push(schedule, schedule.head.rank, availableAtMs);
  }

  #decremented(schedule: DomainSchedule, value: number): number {
    if (value > 0) return value - 1;
    this.onNegativeCountPrevented(schedule.domain);
    return 0;
  }
}
