import { FetchStatusTableError, ResultOutsideLeaseError } from './frontier-errors';
import type { LeaseTaskDocument } from './frontier-documents';
import type { ReportResult } from './wire-types';

/** The four fields done and empty must carry, and not_modified and failed must not. */
const RENDERED_FIELDS = ['object_id', 'statistics', 'health_signal', 'link_list'] as const;

/**
 * The fetch_status table of CONTRACT.md §三, checked for every result before anything of the report
 * is applied: one violation refuses the whole report.
 */
export function assertFetchStatusTable(results: readonly ReportResult[]): void {
  results.forEach((result, index) => {
    const problem = findMismatch(result);
    if (problem !== undefined) throw new FetchStatusTableError(index, result.url_hash, problem);
  });
}

function findMismatch(result: ReportResult): string | undefined {
  const status = result.fetch_status;
  const isRendered = status === 'done' || status === 'empty';
  for (const field of RENDERED_FIELDS) {
    const isPresent = result[field] !== null;
    if (isRendered && !isPresent) return `fetch_status ${status} requires ${field}`;
    if (!isRendered && isPresent) return `fetch_status ${status} requires ${field} to be null`;
  }
  const isFailed = status === 'failed';
  if (isFailed && result.fail_reason === null) return 'fetch_status failed requires fail_reason';
  if (!isFailed && result.fail_reason !== null) {
    return `fetch_status ${status} requires fail_reason to be null`;
  }
  return undefined;
}

/**
 * Each result must answer one task of the lease, once: a result for another URL would be dropped
 * without a word while the task it was meant for is re-queued, and of two results for one task
 * only the first would count. Either is a downloader bug worth a loud refusal.
 */
export function assertResultsMatchLease(
  lease: LeaseTaskDocument,
  results: readonly ReportResult[],
): void {
  const leased = new Set(lease.task_list.map((task) => task.url_hash));
  const seen = new Set<string>();
  results.forEach((result, index) => {
    if (!leased.has(result.url_hash)) {
      throw new ResultOutsideLeaseError(
        index,
        `url_hash ${result.url_hash} is not a task of lease ${lease.lease_id}`,
      );
    }
    if (seen.has(result.url_hash)) {
      throw new ResultOutsideLeaseError(index, `a second result for url_hash ${result.url_hash}`);
    }
    seen.add(result.url_hash);
  });
}
