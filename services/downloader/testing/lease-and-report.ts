import type { FakeScheduler, LeaseTask, ReportResult } from './fake-scheduler';
import { waitUntil } from './downloader-test-harness';

/**
 * Queues tasks on the fake scheduler and waits for the report(s) that cover all of them (a task
 * left out of its lease's report counts as covered). `onPoll` runs at every check (progress).
 */
export async function leaseAndReportOn(
  scheduler: FakeScheduler,
  tasks: LeaseTask[],
  timeoutMs = 20_000,
  onPoll?: () => void,
): Promise<ReportResult[]> {
  const hashes = new Set(tasks.map((task) => task.url_hash));
  const reportsBefore = scheduler.reports.length;
  const leasesBefore = scheduler.leaseCalls.length;
  scheduler.queue.push(...tasks);
  await waitUntil(() => {
    onPoll?.();
    const leaseIds = new Set(scheduler.leaseCalls.slice(leasesBefore).map((call) => call.lease_id));
    const reported = scheduler.reports
      .slice(reportsBefore)
      .filter((report) => leaseIds.has(report.lease_id));
    return (
      scheduler.queue.length === 0 &&
      scheduler.leaseCalls
        .slice(leasesBefore)
        .every(
          (call) =>
            call.leased_count === 0 || reported.some((report) => report.lease_id === call.lease_id),
        )
    );
  }, timeoutMs);
  return scheduler.reports
    .slice(reportsBefore)
    .flatMap((report) => report.result_list)
    .filter((result) => hashes.has(result.url_hash));
}
