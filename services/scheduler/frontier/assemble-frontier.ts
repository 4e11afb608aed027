import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ServiceKeyspace } from '../../common/storage/service-keyspace';
import { DomainHealthMonitor } from '../health/domain-health-monitor';
import { DomainProber, type ProbeCall } from '../health/domain-prober';
import { SchedulerMetrics } from '../scheduler-metrics';
import { CandidateRegistry } from './candidate-registry';
import type { Clock } from './clock';
import { CommitQueue, type CommitMode } from './commit-queue';
import { DomainBook } from './domain-book';
import { DomainPicker } from './domain-picker';
import type { DueQueueSlots } from './due-queue-slots';
import { DomainReconciler } from './domain-reconciler';
import { DomainRuntimeRows } from './domain-runtime-rows';
import { FrontierActivity } from './frontier-activity';
import { FrontierMutator } from './frontier-mutator';
import type { FrontierSettings } from './frontier-settings';
import { FrontierStore } from './frontier-store';
import { FrontierSummaryView } from './frontier-summary';
import { openFrontierTables, type UrlTables, type FrontierTables } from './frontier-tables';
import { LeaseAnswers } from './lease-answers';
import { LeaseBook } from './lease-book';
import { LeaseIssuer } from './lease-issuer';
import { LeaseReclaimer } from './lease-reclaimer';
import { LeaseWaiters } from './lease-waiters';
import { LinkIntake } from './link-intake';
import { LinkPreparationPool } from './link-preparation-pool';
import { ReportApplier } from './report-applier';
import { RevisitPromoter } from './revisit-promoter';
import { RevisitSchedule } from './revisit-schedule';
import { RobotsPolicy } from './robots-policy';
import { RuleBook } from './rule-book';
import { RuleIntake } from './rule-intake';
import { SeedIntake } from './seed-intake';
import { UrlAdmission } from './url-admission';
import { UrlStateCounters } from './url-state-counters';
import type { FrontierMemory } from './frontier-startup';
import type { UrlTaskCensus } from './url-task-census';

export interface FrontierDependencies {
  keyspace: ServiceKeyspace;
  clock: Clock;
  settings: FrontierSettings;
  logger: Logger;
  registry: Registry;
  /** POST /v1/probe on the downloader; absent → paused domains wait (logged at start). */
  probe: ProbeCall | undefined;
  /**
   * How batches reach storage (CommitQueue, WriteBatch): `commitModeOf(backend)`. Any but
   * `phased` means the backend commits writes issued together as one transaction (LMDB).
   */
  commitMode: CommitMode;
  /**
   * url_task and its ordering indexes, when the store holds them in memory (residentUrlTables);
   * default: the keyspace's own tables.
   */
  urlTables?: UrlTables;
  /** The due queues slot by slot, with `urlTables` held in memory (residentDueQueueSlots). */
  dueQueueSlots?: DueQueueSlots;
  /** A recount's pass over `urlTables` held in memory (residentUrlTaskCensus); default: a scan. */
  urlTaskCensus?: UrlTaskCensus;
}

/*
 * Bounds on background work per run, so no single run holds the mutation lock for long. The lease
 * path does a small share first, so expired leases and due re-visits never wait for a tick.
 */
const LEASE_PATH_RECLAIM_LIMIT = 8;
const LEASE_PATH_PROMOTION_LIMIT = 200;
export const TICK_RECLAIM_LIMIT = 100;
export const TICK_PROMOTION_LIMIT = 2000;
export const TICK_RECONCILE_URL_BUDGET = 2000;
const RULES_INLINE_URL_BUDGET = 5000;

/** The parts of an assembled frontier that its façade (frontier.ts) and start-up use. */
export interface FrontierParts {
  tables: FrontierTables;
  mutator: FrontierMutator;
  commits: CommitQueue;
  store: FrontierStore;
  rules: RuleBook;
  leases: LeaseBook;
  waiters: LeaseWaiters;
  candidates: CandidateRegistry;
  reclaimer: LeaseReclaimer;
  promoter: RevisitPromoter;
  reconciler: DomainReconciler;
  runtimeRows: DomainRuntimeRows;
  leaseIssuer: LeaseIssuer;
  reportApplier: ReportApplier;
  linkPreparation: LinkPreparationPool;
  ruleIntake: RuleIntake;
  seedIntake: SeedIntake;
  summary: FrontierSummaryView;
  prober: DomainProber;
  metrics: SchedulerMetrics;
  book: DomainBook;
  counters: UrlStateCounters;
  health: DomainHealthMonitor;
  activity: FrontierActivity;
  memory: FrontierMemory;
}

/**
 * Wires the frontier: every part gets what it needs by name, and nothing here decides anything.
 * The order follows the dependencies: in-memory books first, then storage access, then the
 * operations that use both.
 */
export function assembleFrontier(dependencies: FrontierDependencies): FrontierParts {
  const { keyspace, clock, settings, logger } = dependencies;
  const tables = openFrontierTables(keyspace, dependencies.urlTables);
  const rules = new RuleBook();
  const counters = new UrlStateCounters();
  const leases = new LeaseBook();
  const linkPreparation = new LinkPreparationPool(settings.linkPreparationThreadCount, logger);
  // The gauges read their sources only when scraped, after assembly.
  const metrics = new SchedulerMetrics(dependencies.registry, {
    urlCount: (state) => counters.countOf(state),
    liveLeaseCount: () => leases.count,
    readyDomainCount: () => book.ready.readyCount,
    unhealthyDomainCount: () => health.unhealthyDomains().size,
    mutationQueueDepth: () => mutator.waitingCount,
    parkedLeaseCount: () => waiters.parkedCount,
    knownUrlByteCount: (): number => {
      const { isComplete, byteCount } = store.knownUrls;
      return isComplete ? byteCount : 0;
    },
    linkPreparationThreadCount: () => linkPreparation.threadCount,
  });
  const book = new DomainBook({
    rules,
    inFlightCap: settings.domainInFlightCap,
    onNegativeCountPrevented: (domain) => {
      metrics.negativeCountPrevented();
      logger.error({ domain }, 'a counter would have gone negative; kept at 0');
    },
  });
  const runtimeRows = new DomainRuntimeRows({
    tables,
    book,
    clock,
    writeIntervalMs: settings.runtimeWriteIntervalMs,
  });
  const commits = new CommitQueue(dependencies.commitMode, (batchCount, durationSeconds) =>
    metrics.committed(batchCount, durationSeconds),
  );
  const mutator = new FrontierMutator({
    commits,
    onFailure: (error) =>
      logger.fatal(
        { err: error },
        'a frontier write failed; refusing further mutations until the scheduler is restarted',
      ),
  });
  const revisits = new RevisitSchedule();
  const store = new FrontierStore({
    tables,
    areIndexesDerived: dependencies.urlTables?.areIndexesDerived === true,
    leases,
    listeners: [counters, book, metrics, revisits],
  });
  // The link-preparation threads answer links the frontier holds themselves (LinkIntake).
  store.watchKnownUrlTables((table) => linkPreparation.shareKnownUrls(table));
  const promoter = new RevisitPromoter({ tables, store, rules, schedule: revisits });
  const robots = new RobotsPolicy({
    robotsTextHashOf: (domain) => rules.get(domain)?.robotsTextHash,
    // Read back only on a cache miss (the text stays out of memory).
    loadRobotsText: async (domain) => (await tables.rules.get(domain))?.robots_txt,
    userAgent: settings.robotsUserAgent,
  });
  const candidates = new CandidateRegistry(tables);
  const activity = new FrontierActivity(tables, settings.activityRecordTtlSeconds);
  const health = new DomainHealthMonitor({
    tables,
    book,
    thresholds: settings.health,
    schedule: settings.probeSchedule,
    events: {
      onPaused: (domain, reason) => {
        metrics.domainPaused(reason);
        logger.warn({ domain, pause_reason: reason }, 'domain paused by the circuit breaker');
      },
      onResumed: (domain) => logger.info({ domain }, 'domain resumed after a healthy probe'),
    },
  });
  const admission = new UrlAdmission({
    store,
    book,
    droppedUrlCount: () => counters.countOf('dropped'),
    rules,
    robots,
    candidates,
    maxWaitingUrlCountPerDomain: settings.maxWaitingUrlCountPerDomain,
  });
  const reconciler = new DomainReconciler({
    mutator,
    tables,
    store,
    leases,
    rules,
    robots,
    candidates,
    settled: () => commits.settled(),
  });
  const answers = new LeaseAnswers(tables, settings.leaseResultTtlSeconds);
  const reclaimer = new LeaseReclaimer({
    tables,
    store,
    leases,
    answers,
    activity,
    policy: settings.recrawl,
    onReclaimed: () => metrics.leaseReclaimed(),
  });
  const waiters = new LeaseWaiters({
    clock,
    nextWakeAtMs: () =>
      Math.min(
        book.ready.earliestAvailableAtMs(),
        revisits.nextDueAtMs(),
        leases.earliestExpiryMs(),
      ),
  });
  const leaseIssuer = new LeaseIssuer({
    mutator,
    clock,
    tables,
    store,
    picker: new DomainPicker({
      tables,
      store,
      leases,
      book,
      robots,
      slots: dependencies.dueQueueSlots,
    }),
    leases,
    waiters,
    runDueMaintenance: async (batch, nowMs) => {
      await reclaimer.reclaimDue(batch, nowMs, LEASE_PATH_RECLAIM_LIMIT);
      await promoter.promoteDue(batch, nowMs, LEASE_PATH_PROMOTION_LIMIT);
    },
    taskTimeoutMs: settings.taskTimeoutMs,
    apiLinkRenderIntervalMs: settings.apiLinkRenderIntervalSeconds * 1000,
  });
  const reportApplier = new ReportApplier({
    mutator,
    clock,
    tables,
    store,
    rules,
    links: new LinkIntake(
      admission,
      linkPreparation.parse,
      (outcome, count) => metrics.links(outcome, count),
      () => counters.countOf('dropped') === 0,
      () => metrics.linkPreparationRedone(),
    ),
    health,
    reclaimer,
    leases,
    answers,
    activity,
    policy: settings.recrawl,
    events: {
      onApplied: (counts) => metrics.reportResults(counts),
      onStale: () => metrics.staleReport(),
    },
  });
  const ruleIntake = new RuleIntake({
    mutator,
    clock,
    tables,
    rules,
    book,
    reconciler,
    inlineUrlBudget: RULES_INLINE_URL_BUDGET,
    onRenderStrategyChanged: (domain, renderStrategy) =>
      logger.info(
        { domain, render_strategy: renderStrategy },
        renderStrategy === 'api'
          ? 'domain now fetched through its api endpoint (rendered now and then for its links)'
          : 'domain now rendered',
      ),
  });
  const seedIntake = new SeedIntake({ mutator, clock, admission });
  const summary = new FrontierSummaryView({ counters, leases, activity, book, rules, health });
  const prober = new DomainProber({
    monitor: health,
    rules,
    mutator,
    clock,
    probe: dependencies.probe,
    thresholds: settings.health,
    probeTimeoutMs: settings.probeTimeoutMs,
    concurrency: settings.probeConcurrency,
    logger,
    onOutcome: (outcome) => metrics.probe(outcome),
    onFinished: () => waiters.notify(),
  });
  const parts: Omit<FrontierParts, 'memory'> = {
    tables,
    mutator,
    commits,
    store,
    rules,
    leases,
    waiters,
    candidates,
    reclaimer,
    promoter,
    reconciler,
    runtimeRows,
    leaseIssuer,
    reportApplier,
    linkPreparation,
    ruleIntake,
    seedIntake,
    summary,
    prober,
    metrics,
    book,
    counters,
    health,
    activity,
  };
  return {
    ...parts,
    memory: {
      ...parts,
      clock,
      logger,
      census: dependencies.urlTaskCensus,
    },
  };
}
