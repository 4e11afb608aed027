import type { ContractMetrics } from '../common/contract-runtime/contract-metrics';
import { countUnknownAnswerFields } from '../common/contract-runtime/unknown-answer-fields';
import { samplerContract, schedulerContract } from '../common/peers/peer-contracts';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { SamplerClient } from '../../generated/sampler';
import { SchedulerClient } from '../../generated/scheduler';
import type { ServiceKeyspace } from '../common/storage/service-keyspace';
import type { DownloaderSettings } from './downloader-settings';
import { DownloaderMetrics } from './downloader-metrics';
import { DestinationPolicy } from './egress/destination-policy';
import { DestinationResolver, type HostLookup } from './egress/destination-resolver';
import { ProbeEntry } from './entries/probe-entry';
import { RenderEntry } from './entries/render-entry';
import { FetchAuditLog } from './fetching/fetch-audit-log';
import { OriginGateway } from './fetching/origin-gateway';
import { WebPageObjectStore } from './fetching/web-page-object-store';
import { ApiEndpointHintReporter } from './hints/api-endpoint-hint-reporter';
import { LeaseLoop } from './lease-loop/lease-loop';
import { LeaseTaskFetcher } from './lease-loop/lease-task-fetch';
import { ReportDelivery } from './lease-loop/report-delivery';
import { ReportOutbox } from './lease-loop/report-outbox';
import { RobotsGate } from './politeness/robots-gate';
import { AdmissionController } from './rate-limit/admission-controller';
import {
  ConcurrencyConfigStore,
  type ConcurrencyConfig,
} from './rate-limit/concurrency-config-store';
import { DomainRuntimeStore } from './rate-limit/domain-runtime-store';
import { availableParallelism } from 'node:os';
import { PAGE_POOL_HARD_MAX_SIZE } from './downloader-settings';
import { RenderEngine } from './rendering/render-engine';

export interface DownloaderCoreDependencies {
  readonly keyspace: ServiceKeyspace;
  readonly logger: Logger;
  readonly registry: Registry;
  /** Counts the fields of the scheduler's answers this build's contract does not declare. */
  readonly contractMetrics?: ContractMetrics;
  /** DNS (tests pass one that never asks a resolver). */
  readonly hostLookup?: HostLookup;
  /**
   * Chromium profiles (`<data dir>/downloader/browser-profiles`; what a killed run left there is
   * removed at start). Default: a temporary directory of the engine's own.
   */
  readonly browserProfileRoot?: string;
}

/** Shutdown budget, inside the service host's 15 s: renders 6 s, reports 3 s, browser 2 s. */
const SHUTDOWN_DRAIN_MS = 6000;
const SHUTDOWN_REPORT_MS = 3000;
const ENGINE_STOP_GRACE_MS = 2000;
const ROBOTS_TIMEOUT_MS = 10_000;
const LEASE_MAX_REPORT_MARGIN_MS = 5000;

/** `--allow-destinations`: CIDR ranges have a slash; anything else is a host name or an address. */
export function destinationPolicyOf(allowDestinations: readonly string[]): DestinationPolicy {
  return new DestinationPolicy({
    allowedRanges: allowDestinations.filter((entry) => entry.includes('/')),
    allowedHosts: allowDestinations.filter((entry) => !entry.includes('/')),
  });
}

/**
 * The downloader without its HTTP surface: the render engine, the rate-limit layer, robots.txt,
 * storage, the entries and the lease loop, wired together. The service host serves it
 * (assemble-downloader.ts); a benchmark can open it in-process and call the entries directly.
 */
export class DownloaderCore {
  readonly metrics: DownloaderMetrics;
  readonly engine: RenderEngine;
  readonly controller: AdmissionController;
  readonly gateway: OriginGateway;
  readonly objects: WebPageObjectStore;
  readonly renderEntry: RenderEntry;
  readonly probeEntry: ProbeEntry;
  readonly leaseLoop: LeaseLoop | undefined;
  /** v2 API endpoint hints to the sampler; undefined without SAMPLER_TOKEN. */
  readonly hintReporter: ApiEndpointHintReporter | undefined;
  private readonly runtimeStore: DomainRuntimeStore;
  private readonly concurrencyStore: ConcurrencyConfigStore;
  private concurrencyConfig: ConcurrencyConfig | undefined;

  private constructor(
    readonly settings: DownloaderSettings,
    private readonly dependencies: DownloaderCoreDependencies,
  ) {
    const { keyspace, logger, registry } = dependencies;
    this.runtimeStore = new DomainRuntimeStore(
      keyspace.table('domain_runtime'),
      () => this.controller,
      settings.runtimeFlushIntervalMs,
      logger,
    );
    this.controller = new AdmissionController(
      {
        maxConcurrentCount: settings.maxConcurrentCount,
        domainInFlightCap: settings.domainInFlightCap,
        arrivalBoundMs: settings.arrivalBoundMs,
        backoffBaseMs: settings.backoffBaseMs,
        backoffCapMs: settings.backoffCapMs,
        pauseAfterErrorCount: settings.pauseAfterErrorCount,
        pauseMs: settings.pauseSeconds * 1000,
        brakeWaitMs: 2000,
      },
      {
        domainChanged: (domain) => this.runtimeStore.markChanged(domain),
        heldBack: (request, decision) => {
          this.metrics.overLimitCount.inc({
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
          const isPausedNow =
            state.politeness.consecutiveErrorCount >= settings.pauseAfterErrorCount;
          this.metrics.politenessHoldCount.inc({
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
      },
    );
    this.metrics = new DownloaderMetrics(registry, {
      inFlightCount: () => this.controller.inFlightCount,
      maxConcurrentCount: () => this.controller.maxConcurrentCount,
      pagePool: () => ({ ...this.engine.statistics(), sizing: this.engine.poolSizingStatus() }),
    });
    const policy = destinationPolicyOf(settings.allowDestinations);
    this.engine = new RenderEngine({
      destinationPolicy: policy,
      hostLookup: dependencies.hostLookup,
      concurrency: settings.pagePoolSize === 'auto' ? undefined : settings.pagePoolSize,
      poolSizing:
        settings.pagePoolSize === 'auto'
          ? {
              minSize: settings.pagePoolMinSize,
              // Two pages per core to start with; the sizer moves from there within seconds.
              initialSize: 2 * availableParallelism(),
              brake: () => this.controller.maxConcurrentCount,
              hardMaxSize: PAGE_POOL_HARD_MAX_SIZE,
            }
          : undefined,
      recycleAfterRenderCount: settings.recycleAfterRenderCount,
      executablePath: settings.chromiumPath,
      userAgent: settings.userAgent,
      settleMs: settings.settleMs,
      quietWindowMs: settings.quietWindowMs,
      maxContentBytes: settings.maxContentBytes,
      // Hint evidence only when hints can be sent (SAMPLER_TOKEN).
      isApiEvidenceCollected: settings.samplerToken !== undefined,
      stopGraceMs: ENGINE_STOP_GRACE_MS,
      profileRoot: dependencies.browserProfileRoot,
      observer: {
        browserLost: (event) => {
          this.metrics.browserLossCount.inc();
          logger.error({ sequence_number: event.sequenceNumber }, 'browser lost; relaunching');
        },
        poolResized: (change) => {
          this.metrics.pagePoolResizeCount.inc({ pool_size_reason: change.reason });
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
          this.leaseLoop?.roomChanged();
        },
      },
    });
    const robots = new RobotsGate(
      keyspace.table('robots_txt_object'),
      {
        robotsUserAgent: settings.robotsUserAgent as string,
        cacheTtlSeconds: settings.robotsCacheTtlSeconds,
        failureTtlSeconds: settings.robotsFailureTtlSeconds,
      },
      logger,
      {
        fetched: (object) => {
          this.metrics.robotsFetchCount.inc({ robots_policy: object.robots_policy });
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
          this.metrics.robotsDecisionCount.inc({ decision: isAllowed ? 'allowed' : 'disallowed' });
          if (!isAllowed) logger.info({ url }, 'robots.txt disallows the URL; not fetched');
        },
      },
    );
    this.hintReporter = this.createHintReporter();
    this.objects = new WebPageObjectStore(
      keyspace.table('web_page_object'),
      settings.objectRetentionDays,
    );
    this.gateway = new OriginGateway({
      engine: this.engine,
      resolver: new DestinationResolver({ policy, lookup: dependencies.hostLookup }),
      controller: this.controller,
      robots,
      objects: this.objects,
      audit: new FetchAuditLog(
        keyspace.table('fetch_audit_record'),
        settings.auditRetentionDays,
        logger,
      ),
      metrics: this.metrics,
      logger,
      robotsTimeoutMs: ROBOTS_TIMEOUT_MS,
      hints: this.hintReporter,
    });
    this.renderEntry = new RenderEntry(this.gateway, settings.defaultMinIntervalMs);
    this.probeEntry = new ProbeEntry(this.gateway, settings.defaultMinIntervalMs);
    this.concurrencyStore = new ConcurrencyConfigStore(keyspace.table('concurrency_config'));
    this.leaseLoop = this.createLeaseLoop();
  }

  /** Restores the rate-limit layer and the brake from storage and launches Chromium. */
  static async open(
    settings: DownloaderSettings,
    dependencies: DownloaderCoreDependencies,
  ): Promise<DownloaderCore> {
    const core = new DownloaderCore(settings, dependencies);
    const restoredCount = await core.runtimeStore.restoreInto(core.controller);
    core.concurrencyConfig = await core.concurrencyStore.loadOrSeed(settings.maxConcurrentCount);
    core.controller.setMaxConcurrentCount(core.concurrencyConfig.max_concurrent_count);
    await core.engine.start();
    dependencies.logger.info(
      {
        restored_domain_count: restoredCount,
        max_concurrent_count: core.concurrencyConfig.max_concurrent_count,
        page_pool_size: core.engine.concurrency,
        is_page_pool_self_sizing: settings.pagePoolSize === 'auto',
        user_agent: settings.userAgent,
        allow_destinations: settings.allowDestinations,
        is_lease_loop_enabled: core.leaseLoop !== undefined,
        browser_containment: core.engine.browserContainmentKind,
        swept_browser_profile_count: core.engine.sweptProfileCount,
      },
      'downloader core ready',
    );
    if (!core.engine.browserContainmentKind?.endsWith('pid_namespace')) {
      dependencies.logger.warn(
        { browser_containment: core.engine.browserContainmentKind },
        'Chromium cannot run in a PID namespace here: after a kill -9 its helper processes may outlive the downloader for a moment',
      );
    }
    if (settings.contactUrl.includes('example.invalid')) {
      dependencies.logger.warn('--contact-url is a placeholder: site owners cannot reach you');
    }
    return core;
  }

  /** Background work: the write-behind flush and the lease loop. */
  start(): void {
    this.runtimeStore.start();
    this.leaseLoop?.start();
  }

  /** Graceful: the lease loop reports what it holds, renders get a grace, state is flushed. */
  async stop(): Promise<void> {
    await this.leaseLoop?.stop();
    await this.hintReporter?.stop();
    this.controller.close();
    await this.engine.stop();
    await this.runtimeStore.stop();
  }

  get concurrency(): ConcurrencyConfig {
    return this.concurrencyConfig as ConcurrencyConfig;
  }

  /** PUT /v1/operator/concurrency-config: stored first, then applied at once. */
  async updateMaxConcurrentCount(count: number): Promise<ConcurrencyConfig> {
    this.concurrencyConfig = await this.concurrencyStore.save(count);
    this.controller.setMaxConcurrentCount(count);
    this.engine.brakeChanged();
    this.leaseLoop?.roomChanged();
    this.dependencies.logger.info({ max_concurrent_count: count }, 'max_concurrent_count changed');
    return this.concurrencyConfig;
  }

  private createHintReporter(): ApiEndpointHintReporter | undefined {
    const { settings } = this;
    const { logger, contractMetrics } = this.dependencies;
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
      this.metrics,
      logger.child({ component: 'api_endpoint_hints' }),
    );
  }

  private createLeaseLoop(): LeaseLoop | undefined {
    const { settings } = this;
    const { logger, keyspace } = this.dependencies;
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
      onAnswer:
        this.dependencies.contractMetrics &&
        countUnknownAnswerFields(schedulerContract, this.dependencies.contractMetrics),
      onRetry: (event) => {
        if (event.operationId === 'reportLease') this.metrics.reportRetryCount.inc();
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
    return new LeaseLoop(
      client,
      new LeaseTaskFetcher(this.gateway, this.metrics, logger.child({ component: 'lease_loop' })),
      outbox,
      new ReportDelivery(client, outbox, this.metrics, logger),
      () => ({
        pageCount: Math.min(this.engine.concurrency, this.controller.maxConcurrentCount),
        requestCount: this.controller.maxConcurrentCount,
      }),
      {
        workerId: settings.workerId,
        taskCount: settings.leaseTaskCount,
        leaseTtlSeconds: settings.leaseTtlSeconds,
        leaseWaitMs: settings.leaseWaitMs,
        pollIntervalMs: settings.leasePollIntervalMs,
        maxReportMarginMs: LEASE_MAX_REPORT_MARGIN_MS,
        drainMs: SHUTDOWN_DRAIN_MS,
        finalReportMs: SHUTDOWN_REPORT_MS,
      },
      this.metrics,
      logger.child({ component: 'lease_loop', worker_id: settings.workerId }),
    );
  }
}
