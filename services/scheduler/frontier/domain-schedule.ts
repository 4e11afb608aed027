import type { UrlState } from './wire-types';
import type { RuleSummary } from './rule-book';

/** The best due URL of a domain: the band the domain is served in, and since when it waits. */
export interface QueueHead {
  rank: number;
  dueAtMs: number;
}

/**
 * How many of a domain's url_task documents, as stored, are in each state and placed in its due
 * queue — the counts `domain_runtime` keeps so that start-up needs no pass over url_task. Stored, a
 * leased URL is queued and due (the lease book knows it is leased).
 */
export interface StoredUrlCounts {
  queued: number;
  done: number;
  failed: number;
  waitingForRule: number;
  dropped: number;
  due: number;
}

/** Which stored count a stored url_state feeds (`leased` only in data of the older layout). */
export const STORED_COUNT_OF_STATE: Readonly<Record<UrlState, keyof StoredUrlCounts>> = {
  queued: 'queued',
  leased: 'queued',
  done: 'done',
  failed: 'failed',
  waiting_for_rule: 'waitingForRule',
  dropped: 'dropped',
};

/** Whether a URL at `rank`, due at `dueAtMs`, comes before `head` in a due queue (or none is). */
export function isAheadOf(rank: number, dueAtMs: number, head: QueueHead | null): boolean {
  return head === null || rank < head.rank || (rank === head.rank && dueAtMs < head.dueAtMs);
}

export function emptyStoredUrlCounts(): StoredUrlCounts {
  return { queued: 0, done: 0, failed: 0, waitingForRule: 0, dropped: 0, due: 0 };
}

/**
 * One domain's dequeue state (`scheduler:domain_runtime`, the primary rate control, plus what the
 * ready queue needs). Lives in memory; its row is written behind memory (domain-runtime-rows.ts),
 * all of them at a clean stop.
 */
export class DomainSchedule {
  inFlightCount = 0;
  /** Tasks picked by the lease being built, not yet committed (they count against the cap). */
  pendingLeaseCount = 0;
  /** Entries in url_due_index not held by a lease (the operator's due_count). */
  dueCount = 0;
  nextDequeueAtMs = 0;
  lastDequeueAtMs: number | null = null;
  /**
   * When each downloader (worker_id) last leased from the domain — in memory only: after a restart
   * every downloader counts as new, which only spaces its first task more. Created on the first
   * lease: start-up builds one schedule per domain, most of which may never be leased.
   */
  workerLeasedAtMs: Map<string, number> | undefined;
  /** The best due entry, or null when the domain has nothing due. A hint: takers re-check it. */
  head: QueueHead | null = null;
  isPaused = false;
  readonly stored: StoredUrlCounts = emptyStoredUrlCounts();

  /** The domain's rule as DomainBook.ruleOf last looked it up, at RuleBook version `ruleVersion`. */
  rule: RuleSummary | undefined;
  ruleVersion = -1;

  /** Bookkeeping of ReadyDomainQueue: the live entry's version, band and time. */
  readyVersion = 0;
  readyRank: number | null = null;
  readyAvailableAtMs = 0;

  constructor(readonly domain: string) {}

  /** Lowers the head when a better entry arrives; never raises it (takers correct it). */
  offerHead(candidate: QueueHead): void {
    if (isAheadOf(candidate.rank, candidate.dueAtMs, this.head)) this.head = candidate;
  }
}
