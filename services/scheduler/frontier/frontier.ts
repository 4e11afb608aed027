import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ServiceKeyspace } from '../../common/storage/service-keyspace';
import { DomainHealthMonitor } from '../health/domain-health-monitor';
import { DomainProber, type ProbeCall } from '../health/domain-prober';
import { SchedulerMetrics } from '../scheduler-metrics';
import { CandidateRegistry } from './candidate-registry';
import type { Clock } from './clock';
import { DomainBook } from './domain-book';
import { DomainPicker } from './domain-picker';
import { DomainReconciler } from './domain-reconciler';
import { FrontierActivity } from './frontier-activity';
import type { FrontierSettings } from './frontier-settings';
import { rebuildFrontierMemory } from './frontier-startup';
import type { UrlTaskDocument } from './frontier-documents';
import { FrontierStore } from './frontier-store';
import { FrontierSummaryView } from './frontier-summary';
import { openFrontierTables } from './frontier-tables';
import { LeaseIssuer, type LeaseRequest } from './lease-issuer';
import { LeaseReclaimer } from './lease-reclaimer';
import { LinkIntake } from './link-intake';
import { LiveLeaseRegistry } from './live-lease-registry';
import { MaintenanceLoop } from './maintenance-loop';
import { BusyLeases } from './busy-leases';
import { FrontierMutator } from './frontier-mutator';
import { ReportApplier } from './report-applier';
import { RevisitPromoter } from './revisit-promoter';
import { RobotsPolicy } from './robots-policy';
import { RuleBook } from './rule-book';
import { RuleIntake, type RulesOutcome } from './rule-intake';
import { RuntimeFlusher } from './runtime-flusher';
import { SeedIntake, type SeedsOutcome } from './seed-intake';
import { UrlAdmission } from './url-admission';
import { UrlStateCounters } from './url-state-counters';
import type {
  DomainCandidate,
  DomainRule,
  FrontierSummary,
  LeaseResponse,
  ReportRequest,
  ReportResponse,
  SeedItem,
} from './wire-types';

export interface FrontierDependencies {
  keyspace: ServiceKeyspace;
  clock: Clock;
  settings: FrontierSettings;
  logger: Logger;
  registry: Registry;
  /** POST /v1/probe on the downloader; absent → paused domains wait (logged at start). */
  probe: ProbeCall | undefined;
  /**
   * The backend commits writes issued together as one transaction (LMDB). Then each operation's
   * writes go out in one commit; otherwise (TiKV) in their crash-safe order (see WriteBatch).
   */
  isBatchAtomic: boolean;
}

/*
 * Bounds on background work per run, so no single run holds the mutation lock for long. The lease
 * path does a small share first, so expired leases and due re-visits never wait for a tick.
 */
const LEASE_PATH_RECLAIM_LIMIT = 8;
const LEASE_PATH_PROMOTION_LIMIT = 200;
const TICK_RECLAIM_LIMIT = 100;
const TICK_PROMOTION_LIMIT = 2000;
const TICK_RECONCILE_URL_BUDGET = 2000;
const RULES_INLINE_URL_BUDGET = 5000;

/**
 * The URL frontier: the composition of its parts and the operations the handlers call. One instance
 * per process and keyspace; every mutation runs through its FrontierMutator.
 */
export class Frontier {
  readonly #mutator: FrontierMutator;
  readonly #loops: MaintenanceLoop[];
  readonly #leaseIssuer: LeaseIssuer;
  readonly #reportApplier: ReportApplier;
  readonly #ruleIntake: RuleIntake;
  readonly #seedIntake: SeedIntake;
  readonly #candidates: CandidateRegistry;
  readonly #rules: RuleBook;
  readonly #summary: FrontierSummaryView;
  readonly #store: FrontierStore;
  readonly #reclaimer: LeaseReclaimer;
  readonly #promoter: RevisitPromoter;
  readonly #reconciler: DomainReconciler;
  readonly #flusher: RuntimeFlusher;
  readonly #rebuild: (nowMs: number) => Promise<void>;
  readonly #metrics: SchedulerMetrics;
  readonly #prober: DomainProber;

  private constructor(private readonly dependencies: FrontierDependencies) {
    const { keyspace, clock, settings, logger } = dependencies;
    const tables = openFrontierTables(keyspace);
    const rules = new RuleBook();
    const counters = new UrlStateCounters();
    const liveLeases = new LiveLeaseRegistry();
    const busyLeases = new BusyLeases();
    const mutator = new FrontierMutator((error) =>
      logger.fatal(
        { err: error },
        'a frontier write failed; refusing further mutations until the scheduler is restarted',
      ),
    );
    // The gauges read `book` and `health` only when scraped, after construction.
    const metrics = new SchedulerMetrics(dependencies.registry, {
      urlCount: (state) => counters.countOf(state),
      liveLeaseCount: () => liveLeases.count,
      readyDomainCount: () => book.ready.readyCount,
      unhealthyDomainCount: () => health.unhealthyDomains().size,
      mutationQueueDepth: () => mutator.waitingCount,
    });
    const book = new DomainBook(rules, settings.domainInFlightCap, (domain) => {
      metrics.negativeCountPrevented();
      logger.error({ domain }, 'a counter would have gone negative; kept at 0');
    });
    const store = new FrontierStore(tables, [counters, book, metrics], dependencies.isBatchAtomic);
    const robots = new RobotsPolicy(
      // Only rules that carry a robots.txt are read back (the text stays out of memory).
      async (domain) =>
        rules.get(domain)?.hasRobotsText ? (await tables.rules.get(domain))?.robots_txt : null,
      settings.robotsUserAgent,
    );
    const candidates = new CandidateRegistry(tables);
    const activity = new FrontierActivity(tables, settings.activityRecordTtlSeconds);
    const health = new DomainHealthMonitor(tables, book, settings.health, settings.probeSchedule, {
      onPaused: (domain, reason) => {
        metrics.domainPaused(reason);
        logger.warn({ domain, pause_reason: reason }, 'domain paused by the circuit breaker');
      },
      onResumed: (domain) => logger.info({ domain }, 'domain resumed after a healthy probe'),
    });
    const admission = new UrlAdmission(
      store,
      rules,
      robots,
      candidates,
      settings.maxWaitingUrlCountPerDomain,
    );
    const reconciler = new DomainReconciler(tables, store, rules, robots, candidates);
    const reclaimer = new LeaseReclaimer(
      tables,
      store,
      liveLeases,
      busyLeases,
      activity,
      settings.recrawl,
      settings.leaseResultTtlSeconds,
      () => metrics.leaseReclaimed(),
    );
    const promoter = new RevisitPromoter(tables, store, rules);
    const picker = new DomainPicker(tables, store, book, rules, robots);

    this.#mutator = mutator;
    this.#metrics = metrics;
    this.#rules = rules;
    this.#store = store;
    this.#candidates = candidates;
    this.#reclaimer = reclaimer;
    this.#promoter = promoter;
    this.#reconciler = reconciler;
    this.#flusher = new RuntimeFlusher(tables, book, settings.runtimeWriteIntervalMs);
    this.#leaseIssuer = new LeaseIssuer(
      mutator,
      clock,
      tables,
      store,
      picker,
      liveLeases,
      async (batch, nowMs) => {
        await reclaimer.reclaimDue(batch, nowMs, LEASE_PATH_RECLAIM_LIMIT);
        await promoter.promoteDue(batch, nowMs, LEASE_PATH_PROMOTION_LIMIT);
      },
      settings.taskTimeoutMs,
    );
    this.#reportApplier = new ReportApplier(
      mutator,
      clock,
      tables,
      store,
      rules,
      new LinkIntake(admission, (outcome, count) => metrics.links(outcome, count)),
      health,
      reclaimer,
      liveLeases,
      busyLeases,
      activity,
      settings.recrawl,
      settings.leaseResultTtlSeconds,
      {
        onApplied: (counts) => metrics.reportResults(counts),
        onStale: () => metrics.staleReport(),
      },
    );
    this.#ruleIntake = new RuleIntake(
      mutator,
      clock,
      tables,
      rules,
      robots,
      book,
      reconciler,
      RULES_INLINE_URL_BUDGET,
    );
    this.#seedIntake = new SeedIntake(mutator, store, clock, admission);
    this.#summary = new FrontierSummaryView(counters, liveLeases, activity, book, rules, health);
    this.#rebuild = (nowMs) =>
      rebuildFrontierMemory(
        {
          tables,
          store,
          rules,
          book,
          counters,
          candidates,
          health,
          liveLeases,
          activity,
          reconciler,
        },
        nowMs,
        logger,
      );

    const prober = (this.#prober = new DomainProber(
      health,
      rules,
      mutator,
      store,
      clock,
      dependencies.probe,
      settings.health,
      { probeTimeoutMs: settings.probeTimeoutMs, concurrency: settings.probeConcurrency },
      logger,
      (outcome) => metrics.probe(outcome),
    ));
    this.#loops = [
      new MaintenanceLoop('upkeep', settings.maintenanceIntervalMs, () => this.runUpkeep(), logger),
      new MaintenanceLoop('prober', settings.maintenanceIntervalMs, () => prober.runDue(), logger),
    ];
  }

  /** Opens the frontier over `keyspace` and rebuilds its memory (before the first request). */
  static async open(dependencies: FrontierDependencies): Promise<Frontier> {
    const frontier = new Frontier(dependencies);
    await frontier.#rebuild(dependencies.clock.nowMs());
    if (dependencies.probe === undefined) {
      dependencies.logger.warn(
        'no downloader token configured (DOWNLOADER_TOKEN): paused domains cannot be probed and stay paused',
      );
    }
    return frontier;
  }

  startBackgroundWork(): void {
    for (const loop of this.#loops) loop.start();
  }

  /** Stops the loops and writes the runtime rows one last time. */
  async stop(): Promise<void> {
    this.#prober.stop();
    await Promise.all(this.#loops.map((loop) => loop.stop()));
    await this.#mutator
      .run(() =>
        this.#store.commitStaged((batch) =>
          this.#flusher.stage(batch, this.dependencies.clock.nowMs(), true),
        ),
      )
      .catch((error: unknown) =>
        this.dependencies.logger.error({ err: error }, 'final write-behind failed'),
      );
    await this.#store.settled();
  }

  /** False once a write failed and the frontier refuses mutations (see FrontierMutator). */
  get isWritable(): boolean {
    return !this.#mutator.hasFailed;
  }

  async lease(request: LeaseRequest): Promise<LeaseResponse> {
    const response = await this.#leaseIssuer.lease(request);
    this.#metrics.leasedTasks(response.task_list.length);
    return response;
  }

  report(request: ReportRequest): Promise<ReportResponse> {
    return this.#reportApplier.report(request);
  }

  submitRules(ruleList: readonly DomainRule[]): Promise<RulesOutcome> {
    return this.#ruleIntake.submit(ruleList);
  }

  submitSeeds(seedList: readonly SeedItem[]): Promise<SeedsOutcome> {
    return this.#seedIntake.submit(seedList);
  }

  listDomainCandidates(limit: number): Promise<DomainCandidate[]> {
    return this.#candidates.list(limit, (domain) => this.#rules.get(domain) !== undefined);
  }

  /** One URL's document as the latest (possibly not yet durable) decisions left it. */
  async findUrlTask(urlHash: string): Promise<UrlTaskDocument | undefined> {
    const [task] = await this.#store.readUrlTasks([urlHash]);
    return task;
  }

  summarize(domainLimit: number): FrontierSummary {
    return this.#summary.summarize(domainLimit, this.dependencies.clock.nowMs());
  }

  /** One run of background upkeep; the loop calls it every tick (tests may call it directly). */
  async runUpkeep(): Promise<void> {
    const clock = this.dependencies.clock;
    await this.#mutator.run(() =>
      this.#store.commitStaged(async (batch) => {
        await this.#reclaimer.reclaimDue(batch, clock.nowMs(), TICK_RECLAIM_LIMIT);
        await this.#promoter.promoteDue(batch, clock.nowMs(), TICK_PROMOTION_LIMIT);
        this.#flusher.stage(batch, clock.nowMs());
      }),
    );
    await this.#reconciler.runPending(
      TICK_RECONCILE_URL_BUDGET,
      () => clock.nowMs(),
      this.#mutator,
    );
  }
}
