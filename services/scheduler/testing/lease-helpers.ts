import type { SchedulerClient } from '../../../generated/scheduler';
import type {
  LeaseResponse,
  ReportRequest,
  ReportResponse,
  UrlState,
} from '../frontier/wire-types';
import { doneResult, link } from './contract-fixtures';

/** The report of `lease` with every task done (no links). */
export function reportOfAllDone(lease: LeaseResponse): ReportRequest {
  return {
    lease_id: lease.lease_id,
    worker_id: lease.worker_id,
    result_list: lease.task_list.map((task) => doneResult(task)),
  };
}

/** Reports every task of `lease` as done (no links). */
export function reportAllDone(
  client: SchedulerClient,
  lease: LeaseResponse,
): Promise<ReportResponse> {
  return client.reportLease(reportOfAllDone(lease));
}

/**
 * Leases `taskCount` URLs to `workerId` and reports each done with one new link (`<url>/more`):
 * done URLs, and new queued ones, in a few lines. Resolves to the lease.
 */
export async function leaseAndReportWithLinks(
  client: SchedulerClient,
  workerId: string,
  taskCount: number,
): Promise<LeaseResponse> {
  const lease = await client.leaseTasks({ worker_id: workerId, task_count: taskCount });
  await client.reportLease({
    lease_id: lease.lease_id,
    worker_id: workerId,
    result_list: lease.task_list.map((task) =>
      doneResult(task, { link_list: [link(`${task.url}/more`)] }),
    ),
  });
  return lease;
}

/** URLs per url_state, read from the operator endpoint. */
export async function urlCounts(client: SchedulerClient): Promise<Record<UrlState, number>> {
  const summary = await client.getFrontierSummary({ limit: 1000 });
  return Object.fromEntries(
    summary.url_state_list.map((row) => [row.url_state, row.url_count]),
  ) as Record<UrlState, number>;
}

/** in_flight_count per domain, read from the operator endpoint. */
export async function inFlightByDomain(client: SchedulerClient): Promise<Map<string, number>> {
  const summary = await client.getFrontierSummary({ limit: 1000 });
  return new Map(summary.domain_list.map((row) => [row.domain, row.in_flight_count]));
}

/** Seeds `count` URLs per domain: https://{domain}/page-{n}. */
export function seedUrls(domains: readonly string[], count: number): Array<{ url: string }> {
  return domains.flatMap((domain) =>
    Array.from({ length: count }, (_, index) => ({ url: `https://${domain}/page-${index}` })),
  );
}
