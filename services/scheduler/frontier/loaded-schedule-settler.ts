import type { DomainBook } from './domain-book';
import { emptyStoredUrlCounts, type DomainSchedule, type QueueHead } from './domain-schedule';
import type { UrlStateCounters } from './url-state-counters';

/**
 * Start-up's last word on each domain's schedule, said once everything that feeds it is loaded —
 * its counts (a domain_runtime row or a recount) and the live leases that hold its URLs: the due
 * count less what leases hold, the head hint, a dequeue time at least one interval from now, its
 * place in the ready queue, and its URLs in the totals per state.
 *
 * One schedule at a time, so that start-up settles a schedule while the read of its row still has
 * it in the CPU's caches: a separate pass over 100,000 schedules after the rows were read cost
 * 0.25–0.41 s of a 1M-URL start (bench:frontier), most of it the first touch of each schedule
 * again.
 */
export class LoadedScheduleSettler {
  readonly #totals = emptyStoredUrlCounts();

  constructor(
    private readonly book: DomainBook,
    private readonly nowMs: number,
  ) {}

  /** Settles `schedule`, whose counts and leases are loaded; `head` is its row's hint, if any. */
  settle(schedule: DomainSchedule, head: QueueHead | null): void {
    const { stored } = schedule;
    schedule.dueCount = Math.max(0, schedule.dueCount + stored.due);
    // No hint yet a due count: any head is a valid lower bound; the picker finds the real one.
    schedule.head = schedule.dueCount > 0 ? (head ?? { rank: 0, dueAtMs: 0 }) : null;
    // Through the book, which keeps the rule on the schedule for the touch below.
    const rule = this.book.ruleOf(schedule);
    if (rule !== undefined) {
      // The write-behind of next_dequeue_at may have lost its last moments: a restart may
      // lengthen an interval, never shorten one.
      schedule.nextDequeueAtMs = Math.max(
        schedule.nextDequeueAtMs,
        this.nowMs + rule.minIntervalMs,
      );
    }
    this.book.touch(schedule);
    const totals = this.#totals;
    totals.queued += stored.queued;
    totals.done += stored.done;
    totals.failed += stored.failed;
    totals.waitingForRule += stored.waitingForRule;
    totals.dropped += stored.dropped;
  }

  /** URLs of every schedule settled so far, in any state. */
  get urlCount(): number {
    const totals = this.#totals;
    return totals.queued + totals.done + totals.failed + totals.waitingForRule + totals.dropped;
  }

  /** The totals per url_state as the frontier sees them: stored, less the URLs leases hold. */
  countInto(counters: UrlStateCounters, heldCount: number): void {
    const totals = this.#totals;
    counters.addLoaded('queued', totals.queued - heldCount);
    counters.addLoaded('leased', heldCount);
    counters.addLoaded('done', totals.done);
    counters.addLoaded('failed', totals.failed);
    counters.addLoaded('waiting_for_rule', totals.waitingForRule);
    counters.addLoaded('dropped', totals.dropped);
  }
}
