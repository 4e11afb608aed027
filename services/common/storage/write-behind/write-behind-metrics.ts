import type { Registry } from 'prom-client';
import { scrapedCounter, scrapedGauge } from '../../metrics/scraped-metrics';
import type { WriteBehindStatistics } from './write-behind-lmdb-backend';

/** The figures the metrics read at scrape time (WriteBehindLmdbBackend.statistics()). */
export interface WriteBehindStatisticsSource {
  statistics(): WriteBehindStatistics;
}

type CumulativeFigure =
  | 'checkpointCount'
  | 'versionCount'
  | 'rowWriteCount'
  | 'transactionCount'
  | 'secondsWriting'
  | 'backPressureWaitCount'
  | 'backPressureSeconds';

/**
 * Registers the write-behind layer's metrics: what the overlay holds and what checkpoints did.
 * Everything is read from the backend's statistics when Prometheus scrapes, nothing on the write
 * path; the cumulative figures are counters advanced by what changed since the last scrape.
 */
export function registerWriteBehindMetrics(
  registry: Registry,
  source: WriteBehindStatisticsSource,
): void {
  scrapedGauge(
    registry,
    'storage_write_behind_overlay_row_count',
    'Row versions written through the journal and held in memory (read first) until a checkpoint has them in the store; a row rewritten during a checkpoint counts twice until it ends.',
    () => source.statistics().overlayRowCount,
  );
  const cumulative = (name: string, help: string, figure: CumulativeFigure) =>
    scrapedCounter(registry, name, help, () => source.statistics()[figure]);
  cumulative(
    'storage_write_behind_checkpoint_total',
    'Checkpoints written into the store.',
    'checkpointCount',
  );
  cumulative(
    'storage_write_behind_row_version_total',
    'Row versions the checkpointed journal records carried.',
    'versionCount',
  );
  cumulative(
    'storage_write_behind_row_write_total',
    'Rows checkpoints wrote into the store (one per key however often it changed).',
    'rowWriteCount',
  );
  cumulative(
    'storage_write_behind_checkpoint_transaction_total',
    'LMDB transactions the store committed while checkpoints wrote: rows written per transaction is what LMDB charges per row (few large transactions cost far less per row than many small ones).',
    'transactionCount',
  );
  cumulative(
    'storage_write_behind_checkpoint_seconds_total',
    'Time checkpoints spent writing and syncing the store (off the request path).',
    'secondsWriting',
  );
  cumulative(
    'storage_write_behind_back_pressure_wait_total',
    'Writes whose acknowledgement waited for checkpoints because the overlay was over its bound (checkpoints falling behind the journal).',
    'backPressureWaitCount',
  );
  cumulative(
    'storage_write_behind_back_pressure_seconds_total',
    'Time those acknowledgements waited, summed over the writes.',
    'backPressureSeconds',
  );
}
