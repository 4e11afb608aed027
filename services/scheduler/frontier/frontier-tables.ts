import type { KeyspaceTable, ReplicaKeyspaceTable } from '../../common/storage/keyspace-table';
import { primaryKey, type PrimaryKey } from '../../common/storage/primary-key';
import type { ServiceKeyspace } from '../../common/storage/service-keyspace';
import type {
  DomainCandidateDocument,
  DomainHealthDocument,
  DomainRuntimeDocument,
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
  leaseExpiryIndex: KeyspaceTable<IndexEntryDocument>;
  leaseResults: KeyspaceTable<LeaseResultDocument>;
  leaseExpiryRecords: KeyspaceTable<LeaseExpiryRecordDocument>;
  reportStatusRecords: KeyspaceTable<ReportStatusRecordDocument>;
  domainRuntime: KeyspaceTable<DomainRuntimeDocument>;
  domainHealth: KeyspaceTable<DomainHealthDocument>;
  domainCandidates: KeyspaceTable<DomainCandidateDocument>;
}

export function openFrontierTables(keyspace: ServiceKeyspace): FrontierTables {
  return {
    rules: keyspace.replicaTable<StoredDomainRule>('domain_rule_replica'),
    urlTasks: keyspace.table<UrlTaskDocument>('url_task'),
    dueIndex: keyspace.table<IndexEntryDocument>('url_due_index'),
    revisitIndex: keyspace.table<IndexEntryDocument>('url_revisit_index'),
    waitingIndex: keyspace.table<IndexEntryDocument>('url_waiting_index'),
    leaseTasks: keyspace.table<LeaseTaskDocument>('lease_task'),
    leaseExpiryIndex: keyspace.table<IndexEntryDocument>('lease_expiry_index'),
    leaseResults: keyspace.table<LeaseResultDocument>('lease_result'),
    leaseExpiryRecords: keyspace.table<LeaseExpiryRecordDocument>('lease_expiry_record'),
    reportStatusRecords: keyspace.table<ReportStatusRecordDocument>('report_status_record'),
    domainRuntime: keyspace.table<DomainRuntimeDocument>('domain_runtime'),
    domainHealth: keyspace.table<DomainHealthDocument>('domain_health_runtime'),
    domainCandidates: keyspace.table<DomainCandidateDocument>('domain_candidate_task'),
  };
}

export const EMPTY_INDEX_ENTRY: IndexEntryDocument = {};

/*
 * Composite keys of the ordering indexes. Ranks are zero-padded so that byte order is numeric
 * order; times are the stored `…_at` text, whose fixed width makes byte order time order.
 */
const RANK_DIGITS = 16;

export function paddedRank(rank: number): string {
  return String(rank).padStart(RANK_DIGITS, '0');
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

/** `url_revisit_index:{due_at}/{url_hash}` — URLs due later (re-visits, retries after backoff). */
export function revisitIndexKey(dueAt: string, urlHash: string): PrimaryKey {
  return primaryKey(dueAt, urlHash);
}

/** `url_waiting_index:{domain}/{url_hash}` — URLs waiting for their domain's rule. */
export function waitingIndexKey(domain: string, urlHash: string): PrimaryKey {
  return primaryKey(domain, urlHash);
}

/** `lease_expiry_index:{expires_at}/{lease_id}` — live leases in expiry order. */
export function leaseExpiryIndexKey(expiresAt: string, leaseId: string): PrimaryKey {
  return primaryKey(expiresAt, leaseId);
}

/** `…_record:{at}/{lease_id}` — append-only rows in time order. */
export function timeOrderedRecordKey(at: string, leaseId: string): PrimaryKey {
  return primaryKey(at, leaseId);
}
