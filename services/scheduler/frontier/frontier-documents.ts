import type {
  DomainHealthState,
  DomainRule,
  FailReason,
  FetchStatus,
  UrlState,
} from './wire-types';

/*
 * The documents the scheduler stores (CONTRACT.md §五, storage keys). Field names follow
 * CONVENTION.md like wire names do: snake_case, `_at` times with seconds precision, units in
 * duration names, `is_`/`has_` booleans. The storage layer re-checks them on every write.
 */

/** Why a URL was parked as failed instead of being retried again. */
export type ParkReason = 'attempts_exhausted' | 'lease_expiries_exhausted' | 'robots_disallowed';

/**
 * `scheduler:url_task:{url_hash}` — one frontier URL; the source of truth every index derives from.
 *
 * A lease does not rewrite it: a URL is leased while a live lease lists it and has not been applied
 * to it (`applied_lease_id`), which the lease book tracks. Stored, its url_state is never `leased`;
 * the frontier's view of a leased URL is the stored document with url_state `leased` (see
 * `storedFormOf`).
 */
export interface UrlTaskDocument {
  url: string;
  url_hash: string;
  domain: string;
  url_state: UrlState;
  /** The rank it is served at; null while its domain has no rule (the rank depends on the rule). */
  priority_rank: number | null;
  /** A seed's explicit rank; null when the rule's rank applies. */
  seed_priority_rank: number | null;
  /** Added to the base rank for links, from where the link stood on its page. */
  priority_rank_offset: number;
  /** When it is (or was) due; its place in url_due_index or url_revisit_index. */
  due_at: string;
  /** true: it sits in url_due_index (due now); false with queued/done: in url_revisit_index. */
  is_in_due_index: boolean;
  /**
   * The last lease whose result, re-queue or expiry was applied to it: a lease listing the URL
   * holds it only while this names another lease, which makes report retries and reclaims exact.
   */
  applied_lease_id: string | null;
  /** Failed fetches in a row; reset by a successful one. */
  attempt_count: number;
  /** Leases that expired on it in a row; reset by any report. */
  lease_expiry_count: number;
  fail_reason: FailReason | null;
  park_reason: ParkReason | null;
  object_id: string | null;
  etag: string | null;
  last_modified_at: string | null;
  fetched_at: string | null;
  /** The interval in force for its next re-visit; grows while the page answers not_modified. */
  revisit_interval_seconds: number | null;
  discovered_at: string;
  updated_at: string;
  /**
   * The verified_at of the rule whose robots.txt last allowed it (null: not checked yet). A lease
   * re-checks robots.txt only when the domain's rule has changed since, which keeps parsing
   * robots.txt off the lease path.
   */
  robots_rule_verified_at: string | null;
  /**
   * When a fetch that rendered the page (render_strategy render, or a v1 downloader's result) last
   * succeeded: its fetched_at. An api domain's URL is leased as render again once this is older
   * than the api link-render interval, so its links keep flowing (CONTRACT.md §七). null: never
   * rendered (or stored before v2).
   */
  last_rendered_at: string | null;
}

/** What is on disk for a URL the frontier sees as leased: it was queued in its due queue. */
export function storedFormOf(task: UrlTaskDocument): UrlTaskDocument {
  return task.url_state === 'leased'
    ? { ...task, url_state: 'queued', is_in_due_index: true }
    : task;
}

/** Value of the pure ordering indexes (the key carries everything). */
export type IndexEntryDocument = Record<string, never>;

/**
 * `scheduler:domain_rule_replica:{domain}` — the sampler's rule as received. A rule without
 * render_strategy (a v1 sampler's), or one stored before v2, reads back with render_strategy and
 * api_endpoint null: render.
 */
export type StoredDomainRule = DomainRule & {
  received_at: string;
};

/** One task of a lease as stored: enough to find it again without the url_task. */
export interface LeasedTaskReference {
  url_hash: string;
  domain: string;
}

/**
 * `scheduler:lease_task:{lease_id}` — a live lease; deleted once reported or reclaimed. The truth
 * of which URLs are leased (see UrlTaskDocument.applied_lease_id).
 */
export interface LeaseTaskDocument {
  lease_id: string;
  worker_id: string;
  leased_at: string;
  expires_at: string;
  task_list: LeasedTaskReference[];
}

/** `scheduler:lease_result:{lease_id}` — the first answer to a report (the idempotency backstop). */
export interface LeaseResultDocument {
  lease_id: string;
  /** The lease's worker: a report from another worker is refused even after the answer. */
  worker_id: string;
  is_stale_lease: boolean;
  accepted_count: number;
  requeued_count: number;
  answered_at: string;
}

export interface FetchStatusCount {
  fetch_status: FetchStatus;
  result_count: number;
}

/** `scheduler:report_status_record:{reported_at}/{lease_id}` — append-only, one per report received. */
export interface ReportStatusRecordDocument {
  lease_id: string;
  worker_id: string;
  received_at: string;
  is_stale_lease: boolean;
  status_count_list: FetchStatusCount[];
}

/** `scheduler:lease_expiry_record:{reclaimed_at}/{lease_id}` — append-only, one per reclaimed lease. */
export interface LeaseExpiryRecordDocument {
  lease_id: string;
  worker_id: string;
  reclaimed_at: string;
  requeued_count: number;
  parked_count: number;
}

/**
 * `scheduler:domain_runtime:{domain}` — the dequeue control and the domain's share of the frontier,
 * so that start-up reads one row per domain instead of every URL. The counts describe url_task as
 * stored (a leased URL counts as queued and due; live leases are subtracted at start-up) and are
 * written in the same batch as the url_task changes they follow. The dequeue times are written
 * behind memory (start-up makes every domain wait one interval anyway).
 */
export interface DomainRuntimeDocument {
  domain: string;
  in_flight_count: number;
  next_dequeue_at: string | null;
  last_dequeue_at: string | null;
  queued_url_count: number;
  done_url_count: number;
  failed_url_count: number;
  waiting_url_count: number;
  dropped_url_count: number;
  /** Stored url_tasks placed in url_due_index (leased ones included). */
  due_url_count: number;
  /** A lower bound of the best due entry (rank, then due time): a hint the picker corrects. */
  head_priority_rank: number | null;
  head_due_at: string | null;
  updated_at: string;
}

/**
 * `scheduler:frontier_runtime:current` — whether the domain_runtime counts can be trusted at
 * start-up: the layout they belong to, and (on a backend without atomic batches) whether the last
 * run stopped cleanly. When in doubt, start-up recounts from url_task and writes them anew.
 */
export interface FrontierRuntimeDocument {
  layout_version: number;
  is_clean_stop: boolean;
  updated_at: string;
}

/** Sums over one half of a domain's sliding window of recent results. */
export interface HealthWindowSums {
  result_count: number;
  xhr_total_count: number;
  xhr_error_count: number;
  xhr_throttled_count: number;
  xhr_denied_count: number;
  origin_failure_count: number;
}

/** Which ratio paused a domain. */
export type PauseReason =
  'xhr_error_ratio' | 'xhr_throttled_ratio' | 'xhr_denied_ratio' | 'origin_failure_ratio';

/** `scheduler:domain_health_runtime:{domain}` — the availability circuit breaker (sole writer). */
export interface DomainHealthDocument {
  domain: string;
  domain_health_state: DomainHealthState;
  current_window: HealthWindowSums;
  previous_window: HealthWindowSums;
  pause_reason: PauseReason | null;
  paused_at: string | null;
  /** When the next probe is due; null while healthy. */
  paused_until_at: string | null;
  /** Probes that reached the origin and found it still unhealthy, in a row (grows the interval). */
  probe_count: number;
  probe_url: string | null;
  last_probe_at: string | null;
  updated_at: string;
}

/** `scheduler:domain_candidate_task:{domain}` — a domain seen without a rule. */
export interface DomainCandidateDocument {
  domain: string;
  first_seen_at: string;
  url_count: number;
  sample_url_list: string[];
}
