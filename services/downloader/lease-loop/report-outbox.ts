import type { components } from '../../../generated/scheduler';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { PrimaryKey } from '../../common/storage/primary-key';
import { formatContractTime } from '../rendering/contract-time';
import type { ReportResult } from './report-results';

type LeaseResponse = components['schemas']['LeaseResponse'];

/**
 * `downloader:report_outbox_task:{lease_id}` — a lease's report, written when the lease arrives
 * (before anything is fetched), grown by each finished task, and deleted only when the scheduler
 * acknowledged it. A downloader killed mid-lease reports on its next start what it had finished;
 * the scheduler re-queues the rest at once.
 */
export interface ReportOutboxTask {
  lease_id: string;
  worker_id: string;
  expires_at: string;
  leased_at: string;
  task_count: number;
  result_list: ReportResult[];
}

const SCAN_PAGE_SIZE = 100;

interface PendingAppends {
  results: ReportResult[];
  waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }>;
}

/**
 * The outbox table. Appends to one lease are written one batch at a time: results finishing while
 * a write is under way go into the next write together (group commit), so a lease of n tasks costs
 * at most n writes, usually far fewer, and writes never race each other.
 */
export class ReportOutbox {
  private readonly pending = new Map<string, PendingAppends>();
  private readonly writers = new Map<string, Promise<void>>();

  constructor(private readonly table: KeyspaceTable<ReportOutboxTask>) {}

  /** Durable when it resolves. */
  async open(lease: LeaseResponse): Promise<ReportOutboxTask> {
    const row: ReportOutboxTask = {
      lease_id: lease.lease_id,
      worker_id: lease.worker_id,
      expires_at: lease.expires_at,
      leased_at: formatContractTime(new Date()),
      task_count: lease.task_list.length,
      result_list: [],
    };
    // A repeated lease id is the same lease (the scheduler answered a retried call twice): keep it.
    await this.table.compareAndSwap(lease.lease_id, undefined, row);
    return row;
  }

  /** Resolves once `result` is stored in the lease's row (no-op when the row is gone). */
  append(leaseId: string, result: ReportResult): Promise<void> {
    let pending = this.pending.get(leaseId);
    if (pending === undefined) {
      pending = { results: [], waiters: [] };
      this.pending.set(leaseId, pending);
    }
    pending.results.push(result);
    const stored = new Promise<void>((resolve, reject) => {
      (pending as PendingAppends).waiters.push({ resolve, reject });
    });
    if (!this.writers.has(leaseId)) this.writers.set(leaseId, this.writeBatches(leaseId));
    return stored;
  }

  /** Waits until every append made so far is written. */
  async settled(leaseId: string): Promise<void> {
    await this.writers.get(leaseId)?.catch(() => undefined);
  }

  read(leaseId: string): Promise<ReportOutboxTask | undefined> {
    return this.table.get(leaseId);
  }

  async remove(leaseId: string): Promise<void> {
    await this.table.delete(leaseId);
  }

  /** Every row of the outbox (for the start-up flush), in lease id order. */
  async list(): Promise<ReportOutboxTask[]> {
    const rows: ReportOutboxTask[] = [];
    let after: PrimaryKey | undefined;
    for (;;) {
      const page = await this.table.scan({ limit: SCAN_PAGE_SIZE, after });
      rows.push(...page.rows.map((row) => row.value));
      if (page.nextAfter === null) return rows;
      after = page.nextAfter;
    }
  }

  private async writeBatches(leaseId: string): Promise<void> {
    for (;;) {
      const batch = this.pending.get(leaseId);
      if (batch === undefined) {
        // In the same turn as the check: an append after this starts a new writer.
        this.writers.delete(leaseId);
        return;
      }
      this.pending.delete(leaseId);
      try {
        await this.table.update(leaseId, (current) =>
          current === undefined
            ? undefined
            : { ...current, result_list: [...current.result_list, ...batch.results] },
        );
        for (const waiter of batch.waiters) waiter.resolve();
      } catch (error) {
        for (const waiter of batch.waiters) waiter.reject(error);
      }
    }
  }
}
