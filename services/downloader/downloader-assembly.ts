import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { SamplerClient } from '../../generated/sampler';
import { SchedulerClient } from '../../generated/scheduler';
import type { ContractMetrics } from '../common/contract-runtime/contract-metrics';
import { countUnknownAnswerFields } from '../common/contract-runtime/unknown-answer-fields';
import { samplerContract, schedulerContract } from '../common/peers/peer-contracts';
import type { ServiceKeyspace } from '../common/storage/service-keyspace';
import type { DownloaderMetrics } from './downloader-metrics';
import { PAGE_POOL_HARD_MAX_SIZE, type DownloaderSettings } from './downloader-settings';
import { DestinationPolicy } from './egress/destination-policy';
import type { HostLookup } from './egress/destination-resolver';
import type { OriginGateway } from './fetching/origin-gateway';
import { ApiEndpointHintReporter } from './hints/api-endpoint-hint-reporter';
import { LeaseLoop, type LeaseCapacity } from './lease-loop/lease-loop';
import { LeaseTaskFetcher } from './lease-loop/lease-task-fetch';
import { ReportDelivery } from './lease-loop/report-delivery';
import { ReportOutbox } from './lease-loop/report-outbox';
import type { RobotsGateEvents, RobotsGateSettings } from './politeness/robots-gate';
import type {
  AdmissionController,
  AdmissionEvents,
  AdmissionSettings,
} from './rate-limit/admission-controller';
import type { DomainRuntimeStore } from './rate-limit/domain-runtime-store';
import type { RenderEngineOptions } from './rendering/render-engine';
import { DEFAULT_RENDERER_HEAP_RECLAIM } from './rendering/renderer-heap-reclaim';

/*
 * The downloader's wiring, one function per part, each taking a named dependency object —
 * DownloaderCore only calls them in order. Settings become each part's options here; the parts'
 * events become metrics and log lines here.
 */

/** Shutdown budget, inside the service host's 15 s: renders 6 s, reports 3 s, browser 2 s. */
const SHUTDOWN_DRAIN_MS = 6000;
const SHUTDOWN_REPORT_MS = 3000;
const ENGINE_STOP_GRACE_MS = 2000;
const LEASE_MAX_REPORT_MARGIN_MS = 5000;
/** How long entries B and C may queue for a global permit the lease loop keeps busy. */
const BRAKE_WAIT_MS = 2000;

/**
 * Parts built later or referring to each other (the controller reports to the metrics, the
 * metrics read the controller, the engine tells the lease loop about room): read when used.
 */
export interface LateParts {
  readonly metrics: () => DownloaderMetrics;
  readonly controller: () => AdmissionController;
  readonly runtimeStore: () => DomainRuntimeStore;
  readonly leaseLoop: () => LeaseLoop | undefined;
}

export interface WiringContext {
  readonly settings: DownloaderSettings;
  readonly logger: Logger;
  readonly parts: LateParts;
}

/** `--allow-destinations`: CIDR ranges have a slash; anything else is a host name or an address. */
export function destinationPolicyOf(allowDestinations: readonly string[]): DestinationPolicy {
  return new DestinationPolicy({
    allowedRanges: allowDestinations.filter((entry) => entry.includes('/')),
    allowedHosts: allowDestinations.filter((entry) => !entry.includes('/')),
  });
}

export function admissionSettingsOf(settings: DownloaderSettings): AdmissionSettings {
  return {
    maxConcurrentCount: settings.maxConcurrentCount,
    domainInFlightCap: settings.domainInFlightCap,
    arrivalBoundMs: settings.arrivalBoundMs,
    backoffBaseMs: settings.backoffBaseMs,
    backoffCapMs: settings.backoffCapMs,
    pauseAfterErrorCount: settings.pauseAfterErrorCount,
    pauseMs: settings.pauseSeconds * 1000,
    brakeWaitMs: BRAKE_WAIT_MS,
  };
}

/** The rate-limit layer's events: changed domains are flushed, holds counted and logged. */
export function admissionEventsOf({ settings, logger, parts }: WiringContext): AdmissionEvents {
  return {
    domainChanged: (domain) => parts.runtimeStore().markChanged(domain),
    heldBack: (request, decision) => {
      parts.metrics().overLimitCount.inc({
        entry_name: request.entryName,
        hold_reason: decision.holdReason,
      });
      logger.debug(
        {
          domain: request.domain,
          entry_name: request.entryName,
          hold_reason: decision.holdReason,
        },
        'request held back by the rate limit',
      );
    },
    politenessChanged: (state, verdict) => {
      if (verdict.kind !== 'origin_error') return;
      const isPausedNow = state.politeness.consecutiveErrorCount >= settings.pauseAfterErrorCount;
      parts.metrics().politenessHoldCount.inc({
        rate_limit_state: isPausedNow ? 'paused' : 'backing_off',
        fail_reason: verdict.failReason,
      });
      logger.warn(
        {
          domain: state.domain,
          fail_reason: verdict.failReason,
          consecutive_error_count: state.politeness.consecutiveErrorCount,
          backoff_until_at: new Date(state.politeness.backoffUntilMs ?? 0).toISOString(),
        },
        isPausedNow ? 'domain paused after consecutive errors' : 'domain backing off',
      );
    },
  };
}

export interface EngineWiring extends WiringContext {
  readonly destinationPolicy: DestinationPolicy;
  readonly hostLookup?: HostLookup;
  readonly browserProfileRoot?: string;
}

/** The render engine's options: pool sizing under the brake, browser losses and resizes reported. */
export function renderEngineOptionsOf({
  settings,
  logger,
  parts,
  destinationPolicy,
  hostLookup,
  browserProfileRoot,
}: EngineWiring): RenderEngineOptions {
  return {
    destinationPolicy,
    hostLookup,
    concurrency: settings.pagePoolSize === 'auto' ? undefined : settings.pagePoolSize,
    poolSizing:
      settings.pagePoolSize === 'auto'
        ? {
            minSize: settings.pagePoolMinSize,
            // Two pages per core to start with; the sizer moves from there within seconds.
            initialSize: 2 * availableParallelism(),
            brake: () => parts.controller().maxConcurrentCount,
            hardMaxSize: PAGE_POOL_HARD_MAX_SIZE,
          }
        : undefined,
    recycleAfterRenderCount: settings.recycleAfterRenderCount,
    rendererProcessLimit: settings.rendererProcessLimit,
    rendererHeapReclaim: {
      ...DEFAULT_RENDERER_HEAP_RECLAIM,
      thresholdBytes: settings.rendererHeapCollectAboveMb * 1024 * 1024,
    },
    executablePath: settings.chromiumPath,
    userAgent: settings.userAgent,
    settleMs: settings.settleMs,
    quietWindowMs: settings.quietWindowMs,
    maxContentBytes: settings.maxContentBytes,
    // Hint evidence only when hints can be sent (SAMPLER_TOKEN).
    isApiEvidenceCollected: settings.samplerToken !== undefined,
    stopGraceMs: ENGINE_STOP_GRACE_MS,
    profileRoot: browserProfileRoot,
    observer: {
      browserLost: (event) => {
        parts.metrics().browserLossCount.inc();
        logger.error({ sequence_number: event.sequenceNumber }, 'browser lost; relaunching');
      },
      rendererHeapCollected: (collection) => {
        parts.metrics().rendererHeapCollectionDuration.observe(collection.durationMs / 1000);
        parts
          .metrics()
          .rendererHeapFreedBytes.inc(
            Math.max(0, collection.heapBytesBefore - collection.heapBytesAfter),
          );
        logger.debug(
          {
            heap_bytes_before: collection.heapBytesBefore,
            heap_bytes_after: collection.heapBytesAfter,
            duration_ms: collection.durationMs,
          },
          'renderer heap collected',
        );
      },
      poolResized: (change) => {
        parts.metrics().pagePoolResizeCount.inc({ pool_size_reason: change.reason });
        logger.info(
          {
            from_size: change.fromSize,
            to_size: change.toSize,
            pool_size_reason: change.reason,
            machine_busy_ratio: change.window?.machineCpuBusyRatio,
            downloader_busy_ratio: change.window?.treeCpuRatio,
            processor_wait_ratio: change.window?.cpuStallRatio,
            memory_available_bytes: change.window?.memoryAvailableBytes,
            event_loop_delay_ms: change.window?.eventLoopLagMs,
            demand_ratio: change.window?.demandRatio,
          },
          'page pool resized',
        );
        parts.leaseLoop()?.roomChanged();
      },
    },
  };
}

export function robotsGateSettingsOf(settings: DownloaderSettings): RobotsGateSettings {
  return {
    robotsUserAgent: settings.robotsUserAgent as string,
    cacheTtlSeconds: settings.robotsCacheTtlSeconds,
    failureTtlSeconds: settings.robotsFailureTtlSeconds,
  };
}

/** robots.txt fetches and decisions, counted and logged. */
export function robotsGateEventsOf({ logger, parts }: WiringContext): RobotsGateEvents {
  return {
    fetched: (object) => {
      parts.metrics().robotsFetchCount.inc({ robots_policy: object.robots_policy });
      logger.info(
        {
          domain: object.domain,
          robots_txt_url: object.robots_txt_url,
          http_status: object.http_status,
          robots_policy: object.robots_policy,
        },
        'robots.txt fetched',
      );
    },
    decided: (url, isAllowed) => {
      parts.metrics().robotsDecisionCount.inc({ decision: isAllowed ? 'allowed' : 'disallowed' });
      if (!isAllowed) logger.info({ url }, 'robots.txt disallows the URL; not fetched');
    },
  };
}

export interface PeerWiring {
  readonly settings: DownloaderSettings;
  readonly logger: Logger;
  readonly metrics: DownloaderMetrics;
  /** Counts the fields of a peer's answers this build's contract does not declare. */
  readonly contractMetrics?: ContractMetrics;
}

/** v2 hints to the sampler; none without SAMPLER_TOKEN (said once at start). */
export function createHintReporter({
  settings,
  logger,
  metrics,
  contractMetrics,
}: PeerWiring): ApiEndpointHintReporter | undefined {
  if (settings.samplerToken === undefined) {
    logger.info('no SAMPLER_TOKEN: API endpoint hints are not sent to the sampler');
    return undefined;
  }
  const client = new SamplerClient({
    baseUrl: settings.samplerUrl,
    token: settings.samplerToken,
    userAgent: 'render-crawler-downloader',
    onAnswer: contractMetrics && countUnknownAnswerFields(samplerContract, contractMetrics),
  });
  return new ApiEndpointHintReporter(
    client,
    metrics,
    logger.child({ component: 'api_endpoint_hints' }),
  );
}

export interface LeaseLoopWiring extends PeerWiring {
  readonly keyspace: ServiceKeyspace;
  readonly gateway: OriginGateway;
  readonly capacity: () => LeaseCapacity;
}

/** Entry A; none when turned off or without SCHEDULER_TOKEN (a render-only node). */
export function createLeaseLoop({
  settings,
  logger,
  metrics,
  contractMetrics,
  keyspace,
  gateway,
  capacity,
}: LeaseLoopWiring): LeaseLoop | undefined {
  if (!settings.isLeaseLoopEnabled) return undefined;
  if (settings.schedulerToken === undefined) {
    logger.warn('no SCHEDULER_TOKEN: the lease loop is off (render-only node)');
    return undefined;
  }
  const client = new SchedulerClient({
    baseUrl: settings.schedulerUrl,
    token: settings.schedulerToken,
    // Reports can carry thousands of links; the scheduler gets time to store them.
    timeoutMs: 30_000,
    userAgent: 'render-crawler-downloader',
    onAnswer: contractMetrics && countUnknownAnswerFields(schedulerContract, contractMetrics),
    onRetry: (event) => {
      if (event.operationId === 'reportLease') metrics.reportRetryCount.inc();
      logger.warn(
        {
          operation: event.operationId,
          attempt_number: event.attemptNumber,
          delay_ms: event.delayMs,
          reason: event.reason,
        },
        'scheduler call failed; retrying',
      );
    },
  });
  const outbox = new ReportOutbox(keyspace.table('report_outbox_task'));
  return new LeaseLoop({
    client,
    fetcher: new LeaseTaskFetcher(gateway, metrics, logger.child({ component: 'lease_loop' })),
    outbox,
    delivery: new ReportDelivery(client, outbox, metrics, logger),
    capacity,
    settings: {
      workerId: settings.workerId,
      taskCount: settings.leaseTaskCount,
      leaseTtlSeconds: settings.leaseTtlSeconds,
      leaseWaitMs: settings.leaseWaitMs,
      pollIntervalMs: settings.leasePollIntervalMs,
      maxReportMarginMs: LEASE_MAX_REPORT_MARGIN_MS,
      drainMs: SHUTDOWN_DRAIN_MS,
      finalReportMs: SHUTDOWN_REPORT_MS,
    },
    metrics,
    logger: logger.child({ component: 'lease_loop', worker_id: settings.workerId }),
  });
}
