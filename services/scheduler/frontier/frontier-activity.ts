import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import { primaryKey } from '../../common/storage/primary-key';
import type { LeaseExpiryRecordDocument, ReportStatusRecordDocument } from './frontier-documents';
import { timeOrderedRecordKey, type FrontierTables } from './frontier-tables';
import { msOfTimeText, timeTextOf } from './time-text';
import type { WriteBatch } from './write-batch';
import { OPERATOR_WINDOW_SECONDS, WindowedCounter } from './windowed-counter';
import type { FetchStatus } from './wire-types';

const RECORD_SCAN_PAGE_SIZE = 5000;

/**
 * The append-only audit of reports and reclaimed leases (`report_status_record`,
 * `lease_expiry_record`, each kept for a configurable time), and the 24-hour counts the operator
 * view shows, kept in memory in minute buckets and rebuilt from the records at start-up.
 */
export class FrontierActivity {
  readonly reportStatuses = new WindowedCounter<FetchStatus>();
  readonly expiredLeases = new WindowedCounter<'expired'>();

  constructor(
    private readonly tables: FrontierTables,
    private readonly recordTtlSeconds: number,
  ) {}

  stageReport(batch: WriteBatch, record: ReportStatusRecordDocument): void {
    this.#stageRecord(batch, this.tables.reportStatusRecords, record.received_at, record);
    this.#countReport(record);
  }

  stageExpiry(batch: WriteBatch, record: LeaseExpiryRecordDocument): void {
    this.#stageRecord(batch, this.tables.leaseExpiryRecords, record.reclaimed_at, record);
    this.expiredLeases.add('expired', 1, msOfTimeText(record.reclaimed_at));
  }

  #stageRecord<T extends { lease_id: string }>(
    batch: WriteBatch,
    table: KeyspaceTable<T>,
    at: string,
    record: T,
  ): void {
    batch.put(
      table,
      timeOrderedRecordKey(at, record.lease_id),
      record,
      'pointers',
      this.recordTtlSeconds,
    );
  }

  /** Replays the records of the last window into the counters. */
  async load(nowMs: number): Promise<void> {
    const windowStart = primaryKey(timeTextOf(nowMs - OPERATOR_WINDOW_SECONDS * 1000));
    for (let after: typeof windowStart | null = windowStart; after !== null;) {
      const page = await this.tables.reportStatusRecords.scan({
        after,
        limit: RECORD_SCAN_PAGE_SIZE,
      });
      for (const row of page.rows) this.#countReport(row.value);
      after = page.nextAfter;
    }
    for (let after: typeof windowStart | null = windowStart; after !== null;) {
      const page = await this.tables.leaseExpiryRecords.scan({
        after,
        limit: RECORD_SCAN_PAGE_SIZE,
      });
      for (const row of page.rows)
        this.expiredLeases.add('expired', 1, msOfTimeText(row.value.reclaimed_at));
      after = page.nextAfter;
    }
  }

  #countReport(record: ReportStatusRecordDocument): void {
    // A stale report applied nothing, so its results are not "reported results" of the window.
    if (record.is_stale_lease) return;
    const atMs = msOfTimeText(record.received_at);
    for (const { fetch_status, result_count } of record.status_count_list) {
      this.reportStatuses.add(fetch_status, result_count, atMs);
    }
  }
}
