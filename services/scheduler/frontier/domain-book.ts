import { storedFormOf, type UrlTaskDocument } from './frontier-documents';
import type { PlacedChange, UrlTaskChangeListener } from './frontier-store';
import { DomainSchedule, STORED_COUNT_OF_STATE } from './domain-schedule';
import { isSamePlacement } from './index-placement';
import { ReadyDomainQueue } from './ready-domain-queue';
import type { RuleBook, RuleSummary } from './rule-book';
import { msOfTimeText } from './time-text';

/** Placed in url_due_index as stored (what `due_url_count` counts). */
export function isStoredAsDue(task: UrlTaskDocument): boolean {
  return task.url_state === 'queued' && task.is_in_due_index && task.priority_rank !== null;
}

export interface DomainBookDependencies {
  rules: RuleBook;
  inFlightCap: number;
  onNegativeCountPrevented: (domain: string) => void;
}

/**
 * Every domain's dequeue state, and the ready queue derived from it. It follows staged url_task
 * changes (in-flight and due counts, queue heads, the stored counts of domain_runtime), so the
 * counters are exact by construction: a URL leaves `leased` at most once per lease, hence in-flight
 * counts cannot be decremented twice — and they are clamped at zero besides, with the clamp counted
 * as an anomaly.
 */
export class DomainBook implements UrlTaskChangeListener {
  readonly #schedules = new Map<string, DomainSchedule>();
  readonly ready = new ReadyDomainQueue();
  readonly #runtimeChanged = new Set<DomainSchedule>();
  /** While start-up loads, changes do not touch: it touches each schedule once it has settled it. */
  #isLoading = false;
  #lastObtained: DomainSchedule | undefined;

  constructor(private readonly dependencies: DomainBookDependencies) {}

  get(domain: string): DomainSchedule | undefined {
    return this.#schedules.get(domain);
  }

  /**
   * The domain's rule, looked up again only when the rule book changed since the last look: a lease
   * and its report touch a schedule several times each, and a lookup in a map of every domain's
   * rule (100,000 at bench:frontier's 1M stage) missed the CPU's caches every time.
   */
  ruleOf(schedule: DomainSchedule): RuleSummary | undefined {
    const { rules } = this.dependencies;
    if (schedule.ruleVersion !== rules.version) {
      schedule.rule = rules.get(schedule.domain);
      schedule.ruleVersion = rules.version;
    }
    return schedule.rule;
  }

  obtain(domain: string): DomainSchedule {
    // Changes come in runs of one domain (a lease takes up to the in-flight cap of its URLs, and
    // their results are reported together): the last schedule saves a lookup in a map of every
    // domain, which misses the CPU's caches at 100,000 of them. Schedules are never removed.
    const last = this.#lastObtained;
    if (last !== undefined && last.domain === domain) return last;
    let schedule = this.#schedules.get(domain);
    if (schedule === undefined) {
      schedule = new DomainSchedule(domain);
      this.#schedules.set(domain, schedule);
    }
    this.#lastObtained = schedule;
    return schedule;
  }

  all(): IterableIterator<DomainSchedule> {
    return this.#schedules.values();
  }

  get size(): number {
    return this.#schedules.size;
  }

  beginLoading(): void {
    this.#isLoading = true;
  }

  /** Start-up has touched every schedule it settled (LoadedScheduleSettler): changes touch again. */
  finishLoading(): void {
    this.#isLoading = false;
  }

  onUrlTaskChanged({ previous, next, before, after, isStored }: PlacedChange): void {
    const schedule = this.obtain(next.domain);
    if (previous?.url_state === 'leased' && next.url_state !== 'leased') {
      schedule.inFlightCount = this.#decremented(schedule, schedule.inFlightCount);
      this.markRuntimeChanged(schedule);
    } else if (previous?.url_state !== 'leased' && next.url_state === 'leased') {
      schedule.inFlightCount += 1;
      this.markRuntimeChanged(schedule);
    }
    const wasDue = before?.indexName === 'due';
    const isDue = after?.indexName === 'due';
    if (wasDue && !isDue) {
      schedule.dueCount = this.#decremented(schedule, schedule.dueCount);
      if (schedule.dueCount === 0) schedule.head = null;
    } else if (!wasDue && isDue) {
      schedule.dueCount += 1;
    }
    if (after?.indexName === 'due' && !isSamePlacement(before, after)) {
      schedule.offerHead({ rank: after.rank, dueAtMs: msOfTimeText(next.due_at) });
    }
    if (isStored) this.#countStored(schedule, previous, next);
    if (!this.#isLoading) this.touch(schedule);
  }

  markRuntimeChanged(schedule: DomainSchedule): void {
    // A schedule already in the set keeps its place: the oldest changes are written first.
    this.#runtimeChanged.add(schedule);
  }

  /**
   * Up to `limit` schedules whose counts or dequeue times changed since their row was last staged,
   * those changed longest ago first (a schedule keeps its place while it changes again).
   */
  takeRuntimeChanged(limit = Number.POSITIVE_INFINITY): DomainSchedule[] {
    const taken: DomainSchedule[] = [];
    for (const schedule of this.#runtimeChanged) {
      if (taken.length >= limit) break;
      taken.push(schedule);
    }
    for (const schedule of taken) this.#runtimeChanged.delete(schedule);
    return taken;
  }

  /**
   * Re-derives whether the domain can be served and when: it needs a crawlable rule, no pause, a
   * due URL and a free in-flight slot; it is available once its interval has passed and its head
   * is due.
   */
  touch(schedule: DomainSchedule): void {
    const rule = this.ruleOf(schedule);
    const isEligible =
      rule !== undefined &&
      rule.isCrawlable &&
      !schedule.isPaused &&
      schedule.head !== null &&
      schedule.inFlightCount + schedule.pendingLeaseCount < this.dependencies.inFlightCap;
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

  #countStored(
    schedule: DomainSchedule,
    previous: UrlTaskDocument | undefined,
    next: UrlTaskDocument,
  ): void {
    const counts = schedule.stored;
    if (previous !== undefined) {
      const stored = storedFormOf(previous);
      const state = STORED_COUNT_OF_STATE[stored.url_state];
      counts[state] = this.#decremented(schedule, counts[state]);
      if (isStoredAsDue(stored)) counts.due = this.#decremented(schedule, counts.due);
    }
    counts[STORED_COUNT_OF_STATE[next.url_state]] += 1;
    if (isStoredAsDue(next)) counts.due += 1;
    this.markRuntimeChanged(schedule);
  }

  #decremented(schedule: DomainSchedule, value: number): number {
    if (value > 0) return value - 1;
    this.dependencies.onNegativeCountPrevented(schedule.domain);
    return 0;
  }
}
