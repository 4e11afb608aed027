import { isStoredAsDue } from './domain-book';
import type { UrlTaskDocument } from './frontier-documents';
import { msOfTimeText } from './time-text';
import type { UrlState } from './wire-types';

/**
 * What a recount (frontier-startup.ts) reads of one stored url_task: enough to rebuild its
 * domain's stored counts and the head of its due queue, and nothing else.
 */
export interface CensusedUrlTask {
  domain: string;
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
 * A pass over every stored url_task that reads only what a recount needs, without building its
 * documents — the resident store's columns (residentUrlTaskCensus) answer it in a fraction of the
 * time a scan of a million documents takes. `visit` may be handed the same object each time: it
 * must copy what it keeps.
 */
export interface UrlTaskCensus {
  visitAll(listed: ListedUrls, visit: (task: Readonly<CensusedUrlTask>) => void): void;
}

/** A stored document as a recount reads it (the path of a store without a census). */
export function censusedOf(task: UrlTaskDocument, listed: ListedUrls): CensusedUrlTask {
  const listedBy = listed.get(task.url_hash);
  const isDue = isStoredAsDue(task);
  return {
    domain: task.domain,
    urlState: task.url_state,
    isDue,
    priorityRank: task.priority_rank ?? Number.NaN,
    dueAtMs: isDue ? msOfTimeText(task.due_at) : Number.NaN,
    isHeld: listedBy !== undefined && task.applied_lease_id !== listedBy,
  };
}
