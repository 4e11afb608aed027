import { SchedulerClient } from '../../../generated/scheduler';
import type { LeaseResponse, ReportResult } from '../frontier/wire-types';
import { reportOnce } from './scheduler-process-harness';

/** A lease a worker received, and whether its report was acknowledged. */
export interface ReceivedLease {
  lease: LeaseResponse;
  receivedAtMs: number;
  expiresAtMs: number;
  isReportAcknowledged: boolean;
}

export interface LeaseTrafficOptions {
  baseUrl: string;
  token: string;
  workerCount: number;
  taskCount: number;
  leaseTtlSeconds: number;
  /** Long poll of each lease call (0: a short pause after an empty lease instead). */
  waitMs: number;
  resultsOf: (lease: LeaseResponse) => ReportResult[];
  /** Every lease received is appended here. */
  received: ReceivedLease[];
  shouldGoOn: () => boolean;
}

/**
 * Workers leasing and reporting as a downloader would, recording what they received and which
 * reports were acknowledged — the traffic of a kill test. A worker stops at its first failure (the
 * scheduler is gone); each report is tried once (the generated client would retry it forever).
 */
export async function driveLeaseTraffic(options: LeaseTrafficOptions): Promise<void> {
  const client = new SchedulerClient({
    baseUrl: options.baseUrl,
    token: options.token,
    maximumAttemptCount: 1,
    timeoutMs: options.waitMs + 10_000,
  });
  await Promise.all(
    Array.from({ length: options.workerCount }, async (_, worker) => {
      while (options.shouldGoOn()) {
        let lease: LeaseResponse;
        try {
          lease = await client.leaseTasks({
            worker_id: `traffic-${worker}`,
            task_count: options.taskCount,
            lease_ttl_seconds: options.leaseTtlSeconds,
            wait_ms: options.waitMs,
          });
        } catch {
          return;
        }
        if (lease.task_list.length === 0) {
          if (options.waitMs === 0) await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        const entry: ReceivedLease = {
          lease,
          receivedAtMs: Date.now(),
          expiresAtMs: Date.parse(lease.expires_at),
          isReportAcknowledged: false,
        };
        options.received.push(entry);
        try {
          const status = await reportOnce(options.baseUrl, options.token, {
            lease_id: lease.lease_id,
            worker_id: lease.worker_id,
            result_list: options.resultsOf(lease),
          });
          if (status !== 200) return;
          entry.isReportAcknowledged = true;
        } catch {
          return;
        }
      }
    }),
  );
}

/** What the leases after a restart did with the URLs the leases before it held. */
export interface ReleaseCheck {
  /** URLs leased again while a lease from before still held them (or after it was reported). */
  leasedWhileHeldCount: number;
  /** URLs in two leases after the restart. */
  leasedTwiceCount: number;
}

export function checkLeasesAfterRestart(
  before: readonly ReceivedLease[],
  after: readonly ReceivedLease[],
): ReleaseCheck {
  const holders = new Map<string, ReceivedLease>();
  for (const entry of before) {
    for (const task of entry.lease.task_list) holders.set(task.url_hash, entry);
  }
  const leasedAfter = new Set<string>();
  let leasedWhileHeldCount = 0;
  let leasedTwiceCount = 0;
  for (const entry of after) {
    for (const task of entry.lease.task_list) {
      if (leasedAfter.has(task.url_hash)) leasedTwiceCount += 1;
      leasedAfter.add(task.url_hash);
      const earlier = holders.get(task.url_hash);
      if (
        earlier !== undefined &&
        (earlier.isReportAcknowledged || entry.receivedAtMs < earlier.expiresAtMs)
      ) {
        leasedWhileHeldCount += 1;
      }
    }
  }
  return { leasedWhileHeldCount, leasedTwiceCount };
}
