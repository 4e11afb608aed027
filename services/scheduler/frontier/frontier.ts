import {
  assembleFrontier,
  TICK_PROMOTION_LIMIT,
  TICK_RECLAIM_LIMIT,
  TICK_RECONCILE_URL_BUDGET,
  type FrontierDependencies,
  type FrontierParts,
} from './assemble-frontier';
import type { UrlTaskDocument } from './frontier-documents';
import type { KnownUrlTable } from './known-url-set';
import { closeCleanly, rebuildFrontierMemory } from './frontier-startup';
import type { LeaseRequest } from './lease-issuer';
import { MaintenanceLoop } from './maintenance-loop';
import type { RulesOutcome } from './rule-intake';
import type { SeedsOutcome } from './seed-intake';
import type {
  DomainCandidate,
  DomainRule,
  FrontierSummary,
  LeaseResponse,
  ReportRequest,
  ReportResponse,
  SeedItem,
} from './wire-types';

export type { FrontierDependencies } from './assemble-frontier';

/** One URL as the frontier sees it, and the live lease holding it. */
export interface UrlTaskState {
  task: UrlTaskDocument;
  leaseId: string | null;
}

/**
 * The URL frontier: the operations the handlers call, over the parts assemble-frontier.ts wires.
 * One instance per process and keyspace; every mutation runs through its FrontierMutator. Its
 * refusals are FrontierErrors (frontier-errors.ts); the scheduler's edge maps them to answers.
 */
export class Frontier {
  readonly #loops: MaintenanceLoop[];
  #knownUrlLoading: Promise<void> | undefined;
  #isStopping = false;

  private constructor(
    private readonly parts: FrontierParts,
    private readonly dependencies: FrontierDependencies,
  ) {
    const { settings, logger } = dependencies;
    this.#loops = [
      new MaintenanceLoop('upkeep', settings.maintenanceIntervalMs, () => this.runUpkeep(), logger),
      new MaintenanceLoop(
        'prober',
        settings.maintenanceIntervalMs,
        () => parts.prober.runDue(),
        logger,
      ),
    ];
  }

  /** Opens the frontier over `keyspace` and rebuilds its memory (before the first request). */
  static async open(dependencies: FrontierDependencies): Promise<Frontier> {
    const frontier = new Frontier(assembleFrontier(dependencies), dependencies);
    await rebuildFrontierMemory(frontier.parts.memory);
    if (dependencies.probe === undefined) {
      dependencies.logger.warn(
        'no downloader token configured (DOWNLOADER_TOKEN): paused domains cannot be probed and stay paused',
      );
    }
    return frontier;
  }

  startBackgroundWork(): void {
    this.parts.linkPreparation.start();
    for (const loop of this.#loops) loop.start();
    this.#knownUrlLoading ??= this.#loadKnownUrls();
  }

  /** See FrontierStore.loadKnownUrls; a failure only leaves presence checks on storage. */
  async #loadKnownUrls(): Promise<void> {
    const { logger } = this.dependencies;
    const startedAtMs = Date.now();
    try {
      const readCount = await this.parts.store.loadKnownUrls(() => this.#isStopping);
      if (readCount === undefined) return;
      const { size, byteCount } = this.parts.store.knownUrls;
      logger.info(
        {
          url_count: size,
          stored_url_count: readCount,
          byte_count: byteCount,
          elapsed_ms: Date.now() - startedAtMs,
        },
        'known urls loaded: link de-duplication reads no storage',
      );
    } catch (error) {
      logger.error(
        { err: error },
        'could not load the known urls; link de-duplication reads storage',
      );
    }
  }

  /**
   * Releases parked lease calls, stops the loops, writes the last rows (#finalWrite) and stops the
   * link-preparation threads, whatever the write did.
   */
  async stop(): Promise<void> {
    const { waiters, prober } = this.parts;
    this.#isStopping = true;
    waiters.stop();
    prober.stop();
    await Promise.all(this.#loops.map((loop) => loop.stop()));
    await this.#knownUrlLoading;
    try {
      await this.#finalWrite();
    } finally {
      await this.parts.linkPreparation.close();
    }
  }

  /** The runtime rows behind memory and — when everything before is durable — a clean stop. */
  async #finalWrite(): Promise<void> {
    const nowMs = this.dependencies.clock.nowMs();
    const isClean = await closeCleanly(this.parts, nowMs);
    if (!isClean) this.dependencies.logger.error('stopped without a clean final write');
  }

  /** False once a write failed and the frontier refuses mutations (see FrontierMutator). */
  get isWritable(): boolean {
    return !this.parts.mutator.hasFailed;
  }

  /**
   * Calls `listener` with every table of the known-URL set, those it has now first, so that a
   * reader on another thread answers what the set holds (KnownUrlReader): the link-preparation
   * threads have them already; the HTTP thread asks here.
   */
  watchKnownUrlTables(listener: (table: KnownUrlTable) => void): void {
    this.parts.store.watchKnownUrlTables(listener);
  }

  async lease(request: LeaseRequest): Promise<LeaseResponse> {
    const response = await this.parts.leaseIssuer.lease(request);
    this.parts.metrics.leasedTasks(response.task_list.length);
    return response;
  }

  /** `preparedLinks`: its links as the HTTP thread prepared them (LinkIntake.prepare), if it did. */
  async report(request: ReportRequest, preparedLinks?: string): Promise<ReportResponse> {
    const response = await this.parts.reportApplier.report(request, preparedLinks);
    this.parts.waiters.notify(); // slots freed, URLs re-queued or discovered
    return response;
  }

  async submitRules(ruleList: readonly DomainRule[]): Promise<RulesOutcome> {
    const outcome = await this.parts.ruleIntake.submit(ruleList);
    this.parts.waiters.notify();
    return outcome;
  }

  async submitSeeds(seedList: readonly SeedItem[]): Promise<SeedsOutcome> {
    const outcome = await this.parts.seedIntake.submit(seedList);
    this.parts.waiters.notify();
    return outcome;
  }

  listDomainCandidates(limit: number): Promise<DomainCandidate[]> {
    const { candidates, rules } = this.parts;
    return candidates.list(limit, (domain) => rules.get(domain) !== undefined);
  }

  /** One URL as the latest (possibly not yet durable) decisions left it. */
  async findUrlTask(urlHash: string): Promise<UrlTaskState | undefined> {
    const [task] = await this.parts.store.readUrlTasks([urlHash]);
    if (task === undefined) return undefined;
    return { task, leaseId: this.parts.leases.holderOf(urlHash) ?? null };
  }

  summarize(domainLimit: number): FrontierSummary {
    return this.parts.summary.summarize(domainLimit, this.dependencies.clock.nowMs());
  }

  /** One run of background upkeep; the loop calls it every tick (tests may call it directly). */
  async runUpkeep(): Promise<void> {
    const { mutator, reclaimer, promoter, runtimeRows, reconciler, waiters } = this.parts;
    const clock = this.dependencies.clock;
    await mutator.run(async (batch) => {
      await reclaimer.reclaimDue(batch, clock.nowMs(), TICK_RECLAIM_LIMIT);
      await promoter.promoteDue(batch, clock.nowMs(), TICK_PROMOTION_LIMIT);
      runtimeRows.stageWriteBehind(batch, clock.nowMs());
    });
    await reconciler.runPending(TICK_RECONCILE_URL_BUDGET, () => clock.nowMs());
    // Time passed: intervals ended, leases expired, re-visits fell due — parked calls look again.
    waiters.notify();
  }
}
