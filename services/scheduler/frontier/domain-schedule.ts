/** The best due URL of a domain: the band the domain is served in, and since when it waits. */
export interface QueueHead {
  rank: number;
  dueAtMs: number;
}

/**
 * One domain's dequeue state (`scheduler:domain_runtime`, the primary rate control, plus what the
 * ready queue needs). Lives in memory; in_flight_count and next_dequeue_at are written behind to
 * storage (DomainBook tracks which rows changed) and rebuilt from url_task at start-up.
 */
export class DomainSchedule {
  inFlightCount = 0;
  /** Tasks picked by the lease being built, not yet committed (they count against the cap). */
  pendingLeaseCount = 0;
  /** Entries in url_due_index (the operator's due_count). */
  dueCount = 0;
  nextDequeueAtMs = 0;
  lastDequeueAtMs: number | null = null;
  /** The best due entry, or null when the domain has nothing due. A hint: takers re-check it. */
  head: QueueHead | null = null;
  isPaused = false;

  /** Bookkeeping of ReadyDomainQueue: the live entry's version, band and time. */
  readyVersion = 0;
  readyRank: number | null = null;
  readyAvailableAtMs = 0;

  constructor(readonly domain: string) {}

  /** Lowers the head when a better entry arrives; never raises it (takers correct it). */
  offerHead(candidate: QueueHead): void {
    if (
      this.head === null ||
      candidate.rank < this.head.rank ||
      (candidate.rank === this.head.rank && candidate.dueAtMs < this.head.dueAtMs)
    ) {
      this.head = candidate;
    }
  }
}
