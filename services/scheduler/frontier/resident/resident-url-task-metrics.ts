import type { Registry } from 'prom-client';
import { scrapedCounter, scrapedGauge } from '../../../common/metrics/scraped-metrics';
import type { ResidentUrlTaskRows } from './resident-url-task-rows';

/**
 * The resident url_task store's metrics (registered when the scheduler holds url_task in memory),
 * read when scraped: what it holds, and what its snapshots did — the records no snapshot covers
 * yet are what a restart after a crash replays.
 */
export function registerResidentUrlTaskMetrics(
  registry: Registry,
  urlTasks: ResidentUrlTaskRows,
): void {
  const statistics = () => urlTasks.snapshots.statistics();
  scrapedGauge(
    registry,
    'scheduler_resident_url_task_count',
    'url_task documents held in memory.',
    () => urlTasks.store.size,
  );
  scrapedGauge(
    registry,
    'scheduler_resident_url_task_bytes',
    'Bytes the in-memory url_task columns and their text take (the indexes not counted).',
    () => urlTasks.store.table.byteCount,
  );
  scrapedGauge(
    registry,
    'scheduler_resident_uncovered_record_count',
    'Journal records taken since the newest complete snapshot began: what a restart replays.',
    () => statistics().uncoveredRecordCount,
  );
  scrapedCounter(
    registry,
    'scheduler_resident_snapshot_total',
    'Snapshots of the in-memory url_task store written and counted.',
    () => statistics().snapshotCount,
  );
  scrapedCounter(
    registry,
    'scheduler_resident_snapshot_failure_total',
    'Snapshots that failed (tried again at the next trigger; the journal keeps what they did not cover).',
    () => statistics().failureCount,
  );
  scrapedCounter(
    registry,
    'scheduler_resident_snapshot_seconds_total',
    'Time snapshots took, written a slice at a time in the background.',
    () => statistics().secondsWriting,
  );
}
