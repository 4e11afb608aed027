import type { Logger } from 'pino';
import type { SchedulerClient } from '../../../generated/scheduler';
import { ContractHttpError } from '../../common/contract-runtime/client-errors';
import { sleep } from '../../common/contract-runtime/retry-backoff';
import type { DownloaderMetrics } from '../downloader-metrics';
import type { ReportOutbox, ReportOutboxTask } from './report-outbox';

export type DeliveryResult = 'acknowledged' | 'stale_lease' | 'dead_letter' | 'aborted';

/** Pause before trying again after a 5xx the client treats as final (a 502 with an error body). */
const FINAL_SERVER_ERROR_PAUSE_MS = 5000;

/**
 * Sends one outbox row as POST /v1/report and clears the row once the scheduler acknowledged it.
 *
 * The generated client retries the report until it succeeds (CONTRACT.md §三): transport errors,
 * 429 and 5xx. What remains:
 *  - a 4xx other than 429 is final (CONTRACT.md §五): resending the same report can never succeed
 *    and would loop forever. It is logged with the scheduler's answer, counted as a dead letter
 *    (`downloader_report_total{result="dead_letter"}`), and the row is cleared. The fetched objects
 *    stay stored and every fetch has its audit record, so nothing fetched is lost; the lease's URLs
 *    come back when the scheduler reclaims the lease;
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
    for (;;) {
      try {
        const answer = await this.client.reportLease(
          { lease_id: row.lease_id, worker_id: row.worker_id, result_list: row.result_list },
          { signal },
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
        if (error instanceof ContractHttpError && error.status < 500 && error.status !== 429) {
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
        log.warn({ err: error }, 'report failed; trying again');
        this.metrics.reportRetryCount.inc();
        await sleep(FINAL_SERVER_ERROR_PAUSE_MS, signal).catch(() => undefined);
      }
    }
  }

  private async clear(row: ReportOutboxTask): Promise<void> {
    await this.outbox.remove(row.lease_id);
    this.metrics.outboxDepth.dec();
  }
}
