import type { Logger } from 'pino';
import type { SchedulerClient } from '../../../generated/scheduler';
import { ContractHttpError } from '../../common/contract-runtime/client-errors';
import { deadlineBoundedPauseMs } from '../../common/contract-runtime/peer-reachability';
import { sleep } from '../../common/backoff/abortable-sleep';
import type { DownloaderMetrics } from '../downloader-metrics';
import type { ReportOutbox, ReportOutboxTask } from './report-outbox';

export type DeliveryResult = 'acknowledged' | 'stale_lease' | 'dead_letter' | 'aborted';

/** First pause before trying again after an answer the client does not retry by itself. */
const FIRST_PAUSE_MS = 5000;
/** Cap of that pause, which doubles while the answer stays the same. */
const MAXIMUM_PAUSE_MS = 60_000;

/**
 * The scheduler's answers that say this very report can never be applied (CONTRACT.md §三/§八):
 * resending it unchanged would loop forever.
 */
const REFUSALS_FOR_GOOD: ReadonlySet<string> = new Set([
  'invalid_request',
  'fetch_status_mismatch',
  'lease_not_found',
  'lease_worker_mismatch',
]);

/** Links kept per result when a report was too large for the scheduler (then none). */
const SLIMMED_LINK_COUNT = 200;

type ReportBody = Pick<ReportOutboxTask, 'lease_id' | 'worker_id' | 'result_list'>;

/**
 * Sends one outbox row as POST /v1/report and clears the row once the scheduler acknowledged it.
 *
 * The generated client retries the report until it succeeds (CONTRACT.md §三): transport errors,
 * 429 and 5xx. What remains:
 *  - the scheduler refuses this report for good (a contract error: invalid_request,
 *    fetch_status_mismatch, lease_not_found, lease_worker_mismatch): resending it could never
 *    succeed and would loop forever. It is logged with the scheduler's answer, counted as a dead
 *    letter (`downloader_report_total{result="dead_letter"}`), and the row is cleared. The fetched
 *    objects stay stored and every fetch has its audit record; the lease's URLs come back when the
 *    scheduler reclaims the lease;
 *  - 413 payload_too_large: the report is sent again with its link lists trimmed, then without
 *    them — the results themselves are worth more than the links of a pathological page;
 *  - any other 4xx (401/403 after a token rotation, a 404 or 408 from a proxy or a wrong URL) is a
 *    configuration or transport problem an operator can fix: the row stays and is retried with a
 *    growing pause, logged as an error each time;
 *  - an abort (shutdown) leaves the row for the next start.
 */
export class ReportDelivery {
  constructor(
    private readonly client: SchedulerClient,
    private readonly outbox: ReportOutbox,
    private readonly metrics: DownloaderMetrics,
    private readonly logger: Logger,
  ) {}

  async deliver(row: ReportOutboxTask, signal: AbortSignal): Promise<DeliveryResult> {
    const log = this.logger.child({ lease_id: row.lease_id });
    let body: ReportBody = row;
    let pauseMs = FIRST_PAUSE_MS;
    // A report is worth most before its lease expires (after that it is answered stale and its
    // URLs are fetched again): retries get denser as the expiry nears, and a pause ends as soon
    // as the scheduler answers any call again (see ContractClient.reachability).
    const retryDeadlineAtMs = Date.parse(row.expires_at);
    for (;;) {
      try {
        const answer = await this.client.reportLease(
          { lease_id: body.lease_id, worker_id: body.worker_id, result_list: body.result_list },
          { signal, retryDeadlineAtMs },
        );
        await this.clear(row);
        const result = answer.is_stale_lease ? 'stale_lease' : 'acknowledged';
        this.metrics.reportCount.inc({ result });
        log.info(
          {
            result_count: row.result_list.length,
            task_count: row.task_count,
            accepted_count: answer.accepted_count,
            requeued_count: answer.requeued_count,
            is_stale_lease: answer.is_stale_lease,
          },
          'lease reported',
        );
        return result;
      } catch (error) {
        if (signal.aborted) {
          log.warn('report not sent before shutdown; kept in the outbox for the next start');
          return 'aborted';
        }
        if (error instanceof ContractHttpError && error.status === 413) {
          const slimmer = slimmedReport(body);
          if (slimmer !== undefined) {
            log.warn(
              { status: 413 },
              'report too large for the scheduler; sending it with fewer links',
            );
            body = slimmer;
            continue;
          }
        }
        if (isRefusedForGood(error)) {
          await this.clear(row);
          this.metrics.reportCount.inc({ result: 'dead_letter' });
          log.error(
            {
              status: error.status,
              error_code: error.errorCode,
              scheduler_message: error.body.message,
              result_count: row.result_list.length,
              url_hash_list: row.result_list.map((result) => result.url_hash),
            },
            'report refused for good; dropped from the outbox (dead letter)',
          );
          return 'dead_letter';
        }
        if (error instanceof ContractHttpError && error.status < 500) {
          log.error(
            { status: error.status, error_code: error.errorCode, pause_ms: pauseMs },
            'report not accepted (configuration or transport?); kept in the outbox, trying again',
          );
        } else {
          log.warn({ err: error }, 'report failed; trying again');
        }
        this.metrics.reportRetryCount.inc();
        await sleep(deadlineBoundedPauseMs(pauseMs, retryDeadlineAtMs, Date.now()), signal).catch(
          () => undefined,
        );
        pauseMs = Math.min(MAXIMUM_PAUSE_MS, pauseMs * 2);
      }
    }
  }

  private async clear(row: ReportOutboxTask): Promise<void> {
    await this.outbox.remove(row.lease_id);
    this.metrics.outboxDepth.dec();
  }
}

function isRefusedForGood(error: unknown): error is ContractHttpError {
  return (
    error instanceof ContractHttpError &&
    error.status >= 400 &&
    error.status < 500 &&
    REFUSALS_FOR_GOOD.has(error.errorCode)
  );
}

/** The report with its link lists trimmed, then emptied; undefined when nothing is left to trim. */
function slimmedReport(body: ReportBody): ReportBody | undefined {
  const longest = Math.max(0, ...body.result_list.map((result) => result.link_list?.length ?? 0));
  if (longest === 0) return undefined;
  const keep = longest > SLIMMED_LINK_COUNT ? SLIMMED_LINK_COUNT : 0;
  return {
    ...body,
    result_list: body.result_list.map((result) =>
      result.link_list === null
        ? result
        : { ...result, link_list: result.link_list.slice(0, keep) },
    ),
  };
}
