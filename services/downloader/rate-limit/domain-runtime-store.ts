import type { Logger } from 'pino';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { PrimaryKey } from '../../common/storage/primary-key';
import { formatContractTime } from '../rendering/contract-time';
import type { FailReason } from '../rendering/render-outcome';
import type { AdmissionController } from './admission-controller';
import type { DomainRateState } from './domain-rate-state';
import type { IntervalSource } from './rate-limit-vocabulary';
import { WindowCounter, WINDOW_MS, type WindowBucket } from './window-counter';

/** `downloader:domain_runtime:{domain}` as stored: the contract's `{last_request_at, in_flight_count}` plus politeness and window counters. */
export interface DomainRuntimeDocument {
  domain: string;
  min_interval_ms: number;
  interval_source: IntervalSource;
  last_request_at: string | null;
  in_flight_count: number;
  consecutive_error_count: number;
  backoff_until_at: string | null;
  last_fail_reason: FailReason | null;
  window_bucket_list: WindowBucketDocument[];
}

interface WindowBucketDocument {
  started_at: string;
  request_count: number;
  lease_loop_over_limit_count: number;
  render_endpoint_over_limit_count: number;
  probe_endpoint_over_limit_count: number;
}

/** Rows outlive the window by a day, then expire: an idle domain needs no row. */
const ROW_TTL_SECONDS = (WINDOW_MS / 1000) * 2;
const SCAN_PAGE_SIZE = 500;
const SECOND_MS = 1000;

function timeOrNull(
  atMs: number | null,
  { isRoundedUp = false }: { isRoundedUp?: boolean } = {},
): string | null {
  if (atMs === null) return null;
  return formatContractTime(new Date(isRoundedUp ? Math.ceil(atMs / SECOND_MS) * SECOND_MS : atMs));
}

function toDocument(state: DomainRateState, nowMs: number): DomainRuntimeDocument {
  return {
    domain: state.domain,
    min_interval_ms: state.minIntervalMs,
    interval_source: state.intervalSource,
    last_request_at: timeOrNull(state.lastRequestAtMs),
    in_flight_count: state.inFlightCount,
    consecutive_error_count: state.politeness.consecutiveErrorCount,
    backoff_until_at: timeOrNull(state.politeness.backoffUntilMs, { isRoundedUp: true }),
    last_fail_reason: state.politeness.lastFailReason,
    window_bucket_list: state.counter.liveBuckets(nowMs).map((bucket) => ({
      started_at: formatContractTime(new Date(bucket.startedAtMs)),
      request_count: bucket.requestCount,
      lease_loop_over_limit_count: bucket.overLimitCounts.lease_loop,
      render_endpoint_over_limit_count: bucket.overLimitCounts.render_endpoint,
      probe_endpoint_over_limit_count: bucket.overLimitCounts.probe_endpoint,
    })),
  };
}

/** `arrivalBoundMs`: how a request of the last run whose answer we no longer know is dated. */
function toState(document: DomainRuntimeDocument, arrivalBoundMs: number): DomainRateState {
  const buckets: WindowBucket[] = document.window_bucket_list.map((bucket) => ({
    startedAtMs: Date.parse(bucket.started_at),
    requestCount: bucket.request_count,
    overLimitCounts: {
      lease_loop: bucket.lease_loop_over_limit_count,
      render_endpoint: bucket.render_endpoint_over_limit_count,
      probe_endpoint: bucket.probe_endpoint_over_limit_count,
    },
  }));
  // Stored at seconds precision: assume the latest instant of that second (never shortens a wait).
  const lastRequestAtMs =
    document.last_request_at === null ? null : Date.parse(document.last_request_at) + SECOND_MS - 1;
  return {
    domain: document.domain,
    minIntervalMs: document.min_interval_ms,
    intervalSource: document.interval_source,
    lastRequestAtMs,
    settledSpacingFromMs: lastRequestAtMs === null ? null : lastRequestAtMs + arrivalBoundMs,
    pendingStamps: new Set(),
    // Nothing is in flight in a process that just started.
    inFlightCount: 0,
    politeness: {
      consecutiveErrorCount: document.consecutive_error_count,
      backoffUntilMs:
        document.backoff_until_at === null ? null : Date.parse(document.backoff_until_at),
      lastFailReason: document.last_fail_reason,
    },
    lastHeldBackAtMs: null,
    counter: new WindowCounter(buckets),
  };
}

/**
 * Write-behind persistence of the rate-limit layer. The controller's memory is authoritative
 * (every request passes through it; a storage write per request would make the hottest path the
 * slowest). Changed domains are written every `flushIntervalMs`; a row lost in a crash costs at
 * most one interval of extra caution, which is what a `_runtime` table may cost.
 */
export class DomainRuntimeStore {
  private readonly dirtyDomains = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly table: KeyspaceTable<DomainRuntimeDocument>,
    private readonly controller: () => AdmissionController,
    private readonly flushIntervalMs: number,
    private readonly logger: Logger,
  ) {}

  markChanged(domain: string): void {
    this.dirtyDomains.add(domain);
  }

  /** Reads every stored row into the controller (at start, before any request). */
  async restoreInto(controller: AdmissionController): Promise<number> {
    let after: PrimaryKey | undefined;
    let restoredCount = 0;
    for (;;) {
      const page = await this.table.scan({ limit: SCAN_PAGE_SIZE, after });
      for (const row of page.rows) {
        controller.restore(toState(row.value, controller.limits.arrivalBoundMs));
        restoredCount += 1;
      }
      if (page.nextAfter === null) return restoredCount;
      after = page.nextAfter;
    }
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.flushIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Writes the domains changed since the last flush; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.writeDirty().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async writeDirty(): Promise<void> {
    const controller = this.controller();
    controller.evictIdle();
    const domains = [...this.dirtyDomains];
    this.dirtyDomains.clear();
    const nowMs = Date.now();
    const rows = domains.flatMap((domain) => {
      const state = controller.domainState(domain);
      return state === undefined
        ? []
        : [{ primaryKey: domain, value: toDocument(state, nowMs), ttlSeconds: ROW_TTL_SECONDS }];
    });
    if (rows.length === 0) return;
    try {
      await this.table.putMany(rows);
    } catch (error) {
      for (const domain of domains) this.dirtyDomains.add(domain);
      this.logger.warn(
        { err: error },
        `domain_runtime flush of ${domains.length} rows failed; retrying`,
      );
    }
  }
}
