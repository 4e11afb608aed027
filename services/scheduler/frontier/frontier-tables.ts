import type { ApiEndpoint } from '../../common/api-endpoint';
import type { KeyspaceTable, ReplicaKeyspaceTable } from '../../common/storage/keyspace-table';
import { primaryKey, type PrimaryKey } from '../../common/storage/primary-key';
import { listOf, recordCodec, recordOf } from '../../common/storage/record-codec';
import type { ServiceKeyspace } from '../../common/storage/service-keyspace';
import { shardBucketOf } from './domain-shard';
import type {
  DomainCandidateDocument,
  DomainHealthDocument,
  DomainRuntimeDocument,
  FrontierRuntimeDocument,
  IndexEntryDocument,
  LeaseExpiryRecordDocument,
  LeaseResultDocument,
  LeaseTaskDocument,
  ReportStatusRecordDocument,
  StoredDomainRule,
  UrlTaskDocument,
} from './frontier-documents';

/** Every table of the scheduler's keyspace (CONTRACT.md §五), typed by the document it holds. */
export interface FrontierTables {
  rules: ReplicaKeyspaceTable<StoredDomainRule>;
  urlTasks: KeyspaceTable<UrlTaskDocument>;
  dueIndex: KeyspaceTable<IndexEntryDocument>;
  revisitIndex: KeyspaceTable<IndexEntryDocument>;
  waitingIndex: KeyspaceTable<IndexEntryDocument>;
  leaseTasks: KeyspaceTable<LeaseTaskDocument>;
  leaseResults: KeyspaceTable<LeaseResultDocument>;
  leaseExpiryRecords: KeyspaceTable<LeaseExpiryRecordDocument>;
  reportStatusRecords: KeyspaceTable<ReportStatusRecordDocument>;
  domainRuntime: KeyspaceTable<DomainRuntimeDocument>;
  frontierRuntime: KeyspaceTable<FrontierRuntimeDocument>;
  domainHealth: KeyspaceTable<DomainHealthDocument>;
  domainCandidates: KeyspaceTable<DomainCandidateDocument>;
}

/*
 * The hot tables — written for every URL or every lease — are MessagePack records with their fields
 * declared here (record-codec.ts: checked against CONVENTION.md once, no names on disk). Fields are
 * only ever appended, and nullable. The rest stay canonical JSON.
 */
export const urlTaskCodec = recordCodec<UrlTaskDocument>({
  url: 'text',
  url_hash: 'text',
  domain: 'text',
  url_state: 'text',
  priority_rank: 'integer?',
  seed_priority_rank: 'integer?',
  priority_rank_offset: 'integer',
  due_at: 'time',
  is_in_due_index: 'boolean',
  applied_lease_id: 'text?',
  attempt_count: 'integer',
  lease_expiry_count: 'integer',
  fail_reason: 'text?',
  park_reason: 'text?',
  object_id: 'text?',
  etag: 'text?',
  last_modified_at: 'time?',
  fetched_at: 'time?',
  revisit_interval_seconds: 'integer?',
  discovered_at: 'time',
  updated_at: 'time',
  robots_rule_verified_at: 'time?',
  last_rendered_at: 'time?',
});

/**
 * The rule replica too: start-up reads every rule, and a rule is read back whenever robots.txt is
 * needed. A field the contract adds to DomainRule fails to compile here until it is declared.
 */
const domainRuleCodec = recordCodec<StoredDomainRule>({
  domain: 'text',
  verdict: 'text',
  undetermined_reason: 'text?',
  min_interval_ms: 'integer',
  wait_selector: 'text?',
  priority_rank: 'integer',
  robots_txt: 'text?',
  verified_at: 'time',
  revisit_interval_seconds: 'integer?',
  received_at: 'time',
  render_strategy: 'text?',
  api_endpoint: recordOf<ApiEndpoint>({
    page_url_pattern: 'text',
    endpoint_url_template: 'text',
    content_pointer: 'text',
  }),
});

const leaseTaskCodec = recordCodec<LeaseTaskDocument>({
  lease_id: 'text',
  worker_id: 'text',
  leased_at: 'time',
  expires_at: 'time',
  task_list: listOf({ url_hash: 'text', domain: 'text' }),
});

const leaseResultCodec = recordCodec<LeaseResultDocument>({
  lease_id: 'text',
  worker_id: 'text',
  is_stale_lease: 'boolean',
  accepted_count: 'integer',
  requeued_count: 'integer',
  answered_at: 'time',
});

const domainRuntimeCodec = recordCodec<DomainRuntimeDocument>({
  domain: 'text',
  in_flight_count: 'integer',
  next_dequeue_at: 'time?',
  last_dequeue_at: 'time?',
  queued_url_count: 'integer',
  done_url_count: 'integer',
  failed_url_count: 'integer',
  waiting_url_count: 'integer',
  dropped_url_count: 'integer',
  due_url_count: 'integer',
  head_priority_rank: 'integer?',
  head_due_at: 'time?',
  updated_at: 'time',
});

const reportStatusRecordCodec = recordCodec<ReportStatusRecordDocument>({
  lease_id: 'text',
  worker_id: 'text',
  received_at: 'time',
  is_stale_lease: 'boolean',
  status_count_list: listOf({ fetch_status: 'text', result_count: 'integer' }),
});

export const EMPTY_INDEX_ENTRY_CODEC = recordCodec<IndexEntryDocument>({});

/**
 * The scheduler's tables in `keyspace`; url_task and its ordering indexes from `urlTables` when
 * given (residentUrlTables: an embedded store holding them in memory, docs/resident-frontier.md).
 */
export function openFrontierTables(
  keyspace: ServiceKeyspace,
  { urlTasks, dueIndex, revisitIndex, waitingIndex }: UrlTables = keyspaceUrlTables(keyspace),
): FrontierTables {
  return {
    rules: keyspace.replicaTable('domain_rule_replica', domainRuleCodec),
    urlTasks,
    dueIndex,
    revisitIndex,
    waitingIndex,
    leaseTasks: keyspace.table('lease_task', leaseTaskCodec),
    leaseResults: keyspace.table('lease_result', leaseResultCodec),
    leaseExpiryRecords: keyspace.table<LeaseExpiryRecordDocument>('lease_expiry_record'),
    reportStatusRecords: keyspace.table('report_status_record', reportStatusRecordCodec),
    domainRuntime: keyspace.table('domain_runtime', domainRuntimeCodec),
    frontierRuntime: keyspace.table<FrontierRuntimeDocument>('frontier_runtime'),
    domainHealth: keyspace.table<DomainHealthDocument>('domain_health_runtime'),
    domainCandidates: keyspace.table<DomainCandidateDocument>('domain_candidate_task'),
  };
}

/** url_task and its ordering indexes: the tables a resident store holds in memory. */
export type UrlTables = Pick<
  FrontierTables,
  'urlTasks' | 'dueIndex' | 'revisitIndex' | 'waitingIndex'
> & {
  /** The index tables drop their writes: their owner derives them from url_task. */
  areIndexesDerived?: boolean;
};

export function keyspaceUrlTables(keyspace: ServiceKeyspace): UrlTables {
  return {
    urlTasks: keyspace.table('url_task', urlTaskCodec),
    dueIndex: keyspace.table('url_due_index', EMPTY_INDEX_ENTRY_CODEC),
    revisitIndex: keyspace.table('url_revisit_index', EMPTY_INDEX_ENTRY_CODEC),
    waitingIndex: keyspace.table('url_waiting_index', EMPTY_INDEX_ENTRY_CODEC),
  };
}

export const EMPTY_INDEX_ENTRY: IndexEntryDocument = {};

/*
 * Composite keys of the ordering indexes. Ranks are zero-padded so that byte order is numeric
 * order; times are the stored `…_at` text, whose fixed width makes byte order time order.
 */
const RANK_DIGITS = 16;
/**
 * Padded forms of the ranks links and rules actually use (small whole numbers), made once each: a
 * due-index key is built several times for every URL leased and settled.
 */
const SMALL_RANK_LIMIT = 4096;
const paddedSmallRanks = new Array<string | undefined>(SMALL_RANK_LIMIT);

export function paddedRank(rank: number): string {
  if (!Number.isInteger(rank) || rank < 0 || rank >= SMALL_RANK_LIMIT) {
    return String(rank).padStart(RANK_DIGITS, '0');
  }
  return (paddedSmallRanks[rank] ??= String(rank).padStart(RANK_DIGITS, '0'));
}

/** `url_due_index:{domain}/{priority_rank}/{due_at}/{url_hash}` — a domain's due URLs in serving order. */
export function dueIndexKey(
  domain: string,
  rank: number,
  dueAt: string,
  urlHash: string,
): PrimaryKey {
  return primaryKey(domain, paddedRank(rank), dueAt, urlHash);
}

/**
 * `url_revisit_index:{shard_bucket}/{due_at}/{url_hash}` — URLs due later (re-visits, retries after
 * backoff), in due order per shard bucket of their domain (domain-shard.ts).
 */
export function revisitIndexKey(domain: string, dueAt: string, urlHash: string): PrimaryKey {
  return primaryKey(shardBucketOf(domain), dueAt, urlHash);
}

/** `url_waiting_index:{domain}/{url_hash}` — URLs waiting for their domain's rule. */
export function waitingIndexKey(domain: string, urlHash: string): PrimaryKey {
  return primaryKey(domain, urlHash);
}

/** `…_record:{at}/{lease_id}` — append-only rows in time order. */
export function timeOrderedRecordKey(at: string, leaseId: string): PrimaryKey {
  return primaryKey(at, leaseId);
}

/** The single row of `frontier_runtime`. */
export const FRONTIER_RUNTIME_KEY = 'current';
