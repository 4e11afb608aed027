import { isStoredAsDue } from './domain-book';
import {
  emptyStoredUrlCounts,
  isAheadOf,
  STORED_COUNT_OF_STATE,
  type QueueHead,
  type StoredUrlCounts,
} from './domain-schedule';
import type { UrlTaskDocument } from './frontier-documents';
import { msOfTimeText } from './time-text';
import type { UrlState } from './wire-types';

/**
 * What a recount (frontier-startup.ts) reads of one stored url_task: enough to rebuild its
 * domain's stored counts and the head of its due queue, and nothing else.
 */
export interface CensusedUrlTask {
  urlState: UrlState;
  /** Placed in url_due_index as stored (isStoredAsDue): queued, in the index, with a rank. */
  isDue: boolean;
  /** Its priority_rank (NaN: none). */
  priorityRank: number;
  /** Its due_at, Unix ms, when `isDue` (NaN otherwise: nothing reads it). */
  dueAtMs: number;
  /** A live lease lists it and none of that lease's reports or expiry was applied to it yet. */
  isHeld: boolean;
}

/**
 * The URLs live leases list: url_hash → the lease that lists it. A URL is held by that lease unless
 * its document names the lease as applied (a report or reclaim that a crash cut short).
 */
export type ListedUrls = ReadonlyMap<string, string>;

/**
 * One domain's share of url_task as a recount finds it: the stored counts `domain_runtime` keeps,
 * and the head of its due queue among the URLs no live lease holds (start-up's hint, as the row's).
 * Every pass over url_task counts a URL through `add`, so both passes count alike.
 */
export class DomainTally {
  readonly stored: StoredUrlCounts = emptyStoredUrlCounts();
  head: QueueHead | null = null;
  urlCount = 0;

  constructor(readonly domain: string) {}

  add(task: Readonly<CensusedUrlTask>): void {
    this.urlCount += 1;
    this.stored[STORED_COUNT_OF_STATE[task.urlState]] += 1;
    if (!task.isDue) return;
    this.stored.due += 1;
    if (task.isHeld) return;
    if (isAheadOf(task.priorityRank, task.dueAtMs, this.head)) {
      this.head = { rank: task.priorityRank, dueAtMs: task.dueAtMs };
    }
  }
}

/**
 * A pass over every stored url_task that reads only what a recount needs, without building its
 * documents, tallied per domain — the resident store's columns (residentUrlTaskCensus) answer it
 * in a fraction of the time a scan of a million documents takes.
 */
export interface UrlTaskCensus {
  tallyAll(listed: ListedUrls): DomainTally[];
}

/** A stored document as a recount reads it (the path of a store without a census). */
export function censusedOf(task: UrlTaskDocument, listed: ListedUrls): CensusedUrlTask {
  const listedBy = listed.get(task.url_hash);
  const isDue = isStoredAsDue(task);
  return {
    urlState: task.url_state,
    isDue,
    priorityRank: task.priority_rank ?? Number.NaN,
    dueAtMs: isDue ? msOfTimeText(task.due_at) : Number.NaN,
    isHeld: listedBy !== undefined && task.applied_lease_id !== listedBy,
  };
}

/** Tallies of stored documents read one by one: the recount's scan where a store has no census. */
export class DocumentTallies {
  readonly #byDomain = new Map<string, DomainTally>();

  constructor(private readonly listed: ListedUrls) {}

  add(task: UrlTaskDocument): void {
    let tally = this.#byDomain.get(task.domain);
    if (tally === undefined) {
      tally = new DomainTally(task.domain);
      this.#byDomain.set(task.domain, tally);
    }
    tally.add(censusedOf(task, this.listed));
  }

  all(): IterableIterator<DomainTally> {
    return this.#byDomain.values();
  }
}
