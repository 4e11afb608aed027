import { ContractError } from '../../common/contract-runtime/contract-error';
import type { ReportResult } from './wire-types';

/** The four fields done and empty must carry, and not_modified and failed must not. */
const RENDERED_FIELDS = ['object_id', 'statistics', 'health_signal', 'link_list'] as const;

/**
 * The fetch_status table of CONTRACT.md §三, checked for every result before anything of the report
 * is applied: one violation refuses the whole report with 400 fetch_status_mismatch.
 */
export function assertFetchStatusTable(results: readonly ReportResult[]): void {
  results.forEach((result, index) => {
    const problem = findMismatch(result);
    if (problem !== undefined) {
      throw new ContractError(
        400,
        'fetch_status_mismatch',
        `result_list[${index}] (${result.url_hash}): ${problem}; nothing of this report was applied`,
      );
    }
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
