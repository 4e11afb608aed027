import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ContractMetrics } from '../common/contract-runtime/contract-metrics';
import type { ServiceKeyspace } from '../common/storage/service-keyspace';
import {
  admissionEventsOf,
  admissionSettingsOf,
  createHintReporter,
  createLeaseLoop,
  destinationPolicyOf,
  renderEngineOptionsOf,
  robotsGateEventsOf,
  robotsGateSettingsOf,
  type LateParts,
  type WiringContext,
} from './downloader-assembly';
import { DownloaderMetrics } from './downloader-metrics';
import type { DownloaderSettings } from './downloader-settings';
import { DestinationResolver, type HostLookup } from './egress/destination-resolver';
import { ProbeEntry } from './entries/probe-entry';
import { RenderEntry } from './entries/render-entry';
import { FetchAuditLog } from './fetching/fetch-audit-log';
import { OriginGateway } from './fetching/origin-gateway';
import { WebPageObjectStore } from './fetching/web-page-object-store';
import type { ApiEndpointHintReporter } from './hints/api-endpoint-hint-reporter';
import type { LeaseLoop } from './lease-loop/lease-loop';
import { RobotsGate } from './politeness/robots-gate';
import { AdmissionController } from './rate-limit/admission-controller';
import {
  ConcurrencyConfigStore,
  type ConcurrencyConfig,
} from './rate-limit/concurrency-config-store';
import { DomainRuntimeStore } from './rate-limit/domain-runtime-store';
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

const ROBOTS_TIMEOUT_MS = 10_000;

/**
 * The downloader without its HTTP surface: the render engine, the rate-limit layer, robots.txt,
 * storage, the entries and the lease loop, wired together (each part's options and events come
 * from downloader-assembly.ts). The service host serves it (assemble-downloader.ts); a benchmark
 * can open it in-process and call the entries directly.
 */
export class DownloaderCore {
  readonly metrics: DownloaderMetrics;
  readonly engine: RenderEngine;
  readonly controller: AdmissionController;
  readonly gateway: OriginGateway;
  readonly objects: WebPageObjectStore;
  private readonly audit: FetchAuditLog;
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
    const { keyspace, logger, registry, contractMetrics, hostLookup } = dependencies;
    const parts: LateParts = {
      metrics: () => this.metrics,
      controller: () => this.controller,
      runtimeStore: () => this.runtimeStore,
      leaseLoop: () => this.leaseLoop,
    };
    const wiring: WiringContext = { settings, logger, parts };
    this.runtimeStore = new DomainRuntimeStore(
      keyspace.table('domain_runtime'),
      parts.controller,
      settings.runtimeFlushIntervalMs,
      logger,
    );
    this.controller = new AdmissionController(
      admissionSettingsOf(settings),
      admissionEventsOf(wiring),
    );
    this.metrics = new DownloaderMetrics(registry, {
      inFlightCount: () => this.controller.inFlightCount,
      maxConcurrentCount: () => this.controller.maxConcurrentCount,
      pagePool: () => ({ ...this.engine.statistics(), sizing: this.engine.poolSizingStatus() }),
    });
    const destinationPolicy = destinationPolicyOf(settings.allowDestinations);
    this.engine = new RenderEngine(
      renderEngineOptionsOf({
        ...wiring,
        destinationPolicy,
        hostLookup,
        browserProfileRoot: dependencies.browserProfileRoot,
      }),
    );
    const peerWiring = { settings, logger, metrics: this.metrics, contractMetrics };
    this.hintReporter = createHintReporter(peerWiring);
    this.audit = new FetchAuditLog(
      keyspace.table('fetch_audit_record'),
      settings.auditRetentionDays,
      logger,
    );
    this.objects = new WebPageObjectStore(
      keyspace.table('web_page_object'),
      settings.objectRetentionDays,
    );
    this.gateway = new OriginGateway({
      engine: this.engine,
      resolver: new DestinationResolver({ policy: destinationPolicy, lookup: hostLookup }),
      controller: this.controller,
      robots: new RobotsGate(
        keyspace.table('robots_txt_object'),
        robotsGateSettingsOf(settings),
        logger,
        robotsGateEventsOf(wiring),
      ),
      objects: this.objects,
      audit: this.audit,
      metrics: this.metrics,
      logger,
      robotsTimeoutMs: ROBOTS_TIMEOUT_MS,
      hints: this.hintReporter,
    });
    this.renderEntry = new RenderEntry(this.gateway, settings.defaultMinIntervalMs);
    this.probeEntry = new ProbeEntry(this.gateway, settings.defaultMinIntervalMs);
    this.concurrencyStore = new ConcurrencyConfigStore(keyspace.table('concurrency_config'));
    this.leaseLoop = createLeaseLoop({
      ...peerWiring,
      keyspace,
      gateway: this.gateway,
      // An api task takes no page (v2): pages bound the tasks that may render, the brake all.
      capacity: () => ({
        pageCount: Math.min(this.engine.concurrency, this.controller.maxConcurrentCount),
        requestCount: this.controller.maxConcurrentCount,
      }),
    });
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
    const refused = this.engine.refusedBrowserTraffic;
    if (refused.count > 0) {
      this.dependencies.logger.info(
        { refused_request_count: refused.count, refused_host_list: refused.hosts },
        "Chromium's own requests (not a page's) were refused without leaving the machine",
      );
    }
    await this.runtimeStore.stop();
    // Renders have ended: what they recorded is written before storage closes.
    await this.audit.drain();
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
}
