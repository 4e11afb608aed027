import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { components } from '../../generated/sampler/types';
import type { ServiceKeyspace } from '../common/storage/service-keyspace';
import { ApiHintIntake } from './api-hints/api-hint-intake';
import { ApiHintVerifier } from './api-hints/api-hint-verifier';
import { ClaimBook } from './claims/claim-book';
import {
  claimedDomainCountOf,
  claimResponseOf,
  claimRowOf,
  exportedDomainOf,
  hintRowOf,
} from './claims/export-views';
import { HintIntake } from './claims/hint-intake';
import { HintLedger } from './claims/hint-ledger';
import { ConsumerTokenBook, type IssuedConsumerToken } from './consumers/consumer-token-book';
import { SampleQueue } from './queue/sample-queue';
import { SamplingLoop, type ListCandidates } from './queue/sampling-loop';
import { RuleBook } from './rules/rule-book';
import { RulePoster, type SubmitRules } from './rules/rule-poster';
import { timeTextOf, type Clock } from './sampler-clock';
import { SamplerMetrics } from './sampler-metrics';
import {
  apiHintVerifierSettingsOf,
  resamplingPolicyOf,
  samplingLoopSettingsOf,
  type SamplerSettingValues,
} from './sampler-settings';
import type { DomainSampler } from './sampling/domain-sampler';
import type { PageRenderer } from './sampling/downloader-requests';
import { StateLock } from './state-lock';
import type { ConsumerTokenDocument, Verdict } from './storage/sampler-documents';
import { openSamplerTables, type SamplerTables } from './storage/sampler-tables';

type Schemas = components['schemas'];

/** The operator view's window (DomainClaimsSummary.window_seconds): the last 24 hours. */
export const OPERATOR_WINDOW_SECONDS = 86_400;
/** Due domains are counted up to this many (SamplingQueueView.due_count). */
const DUE_COUNT_CAP = 10_000;
const VERDICTS: readonly Verdict[] = ['csr', 'partial', 'ssr', 'unknown'];

export interface SamplerCoreDependencies {
  keyspace: ServiceKeyspace;
  clock: Clock;
  logger: Logger;
  registry: Registry;
  settings: SamplerSettingValues;
  /** The sampling procedure; absent: nothing is sampled (no downloader token). */
  domainSampler?: DomainSampler;
  /** The scheduler's edges; absent: no candidates are pulled and rules wait in the outbox. */
  listCandidates?: ListCandidates;
  submitRules?: SubmitRules;
  /** The downloader's POST /v1/render for verifying API endpoint hints; absent: not verified. */
  pageRenderer?: PageRenderer;
}

/**
 * The sampler's parts, assembled once: the tables, the books (rules, queue, claims, consumer
 * tokens, hints), the sampling loop, the rule poster and the claim sweeper. Handlers call the
 * methods below; each answers in the contract's shapes or throws a domain error.
 */
export class SamplerCore {
  readonly metrics: SamplerMetrics;
  readonly consumerTokens: ConsumerTokenBook;
  #sweepTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly dependencies: SamplerCoreDependencies,
    private readonly tables: SamplerTables,
    private readonly lock: StateLock,
    readonly rules: RuleBook,
    readonly queue: SampleQueue,
    readonly claims: ClaimBook,
    readonly loop: SamplingLoop,
    readonly poster: RulePoster | undefined,
    private readonly hints: HintIntake,
    private readonly ledger: HintLedger,
    private readonly apiHints: ApiHintIntake,
    readonly apiHintVerifier: ApiHintVerifier,
    metrics: SamplerMetrics,
  ) {
    this.metrics = metrics;
    this.consumerTokens = new ConsumerTokenBook({
      tables,
      clock: dependencies.clock,
      logger: dependencies.logger,
      metrics,
    });
  }

  static async open(dependencies: SamplerCoreDependencies): Promise<SamplerCore> {
    const { keyspace, clock, logger, registry, settings } = dependencies;
    const tables = openSamplerTables(keyspace);
    const metrics = new SamplerMetrics(registry);
    const lock = new StateLock();
    let poster: RulePoster | undefined;
    // Opened after the rule book, which tells it about every rule written.
    let apiHintVerifier: ApiHintVerifier | undefined;
    const rules = await RuleBook.open({
      tables,
      clock,
      logger,
      priorityRank: settings.rulePriorityRank,
      onQueued: () => poster?.wake(),
      onRecorded: (rule) => apiHintVerifier?.noteRuleRecorded(rule),
    });
    if (dependencies.submitRules !== undefined) {
      poster = new RulePoster({
        tables,
        lock,
        submitRules: dependencies.submitRules,
        logger,
        metrics,
      });
    }
    const queue = await SampleQueue.open(tables, clock);
    // The loop and the claims need each other (a claim skips domains being sampled, sampling
    // skips claimed domains); the claim book asks the loop through this late-bound reference.
    let loop: SamplingLoop | undefined;
    const claims = await ClaimBook.open({
      tables,
      clock,
      logger,
      metrics,
      isSampling: (domain) => loop?.isSampling(domain) ?? false,
      endedClaimRetentionSeconds: settings.endedClaimRetentionDays * 86_400,
    });
    const resampling = resamplingPolicyOf(settings);
    loop = new SamplingLoop({
      lock,
      clock,
      logger,
      metrics,
      queue,
      claims,
      rules,
      sampler: dependencies.domainSampler ?? unavailableSampler,
      resampling,
      settings: samplingLoopSettingsOf(settings),
      listCandidates: dependencies.listCandidates,
    });
    const ledger = new HintLedger(tables, clock);
    const hints = new HintIntake({
      tables,
      lock,
      clock,
      logger,
      metrics,
      claims,
      rules,
      queue,
      ledger,
      resampling,
      confidenceThreshold: settings.hintConfidenceThreshold,
    });
    apiHintVerifier = await ApiHintVerifier.open({
      tables,
      lock,
      clock,
      logger,
      metrics,
      rules,
      settings: apiHintVerifierSettingsOf(settings),
      renderer: dependencies.pageRenderer,
      isSampling: (domain) => loop?.isSampling(domain) ?? false,
    });
    const apiHints = new ApiHintIntake({
      tables,
      clock,
      logger,
      metrics,
      onNewHint: (domain) => apiHintVerifier?.noteNewHint(domain),
    });
    return new SamplerCore(
      dependencies,
      tables,
      lock,
      rules,
      queue,
      claims,
      loop,
      poster,
      hints,
      ledger,
      apiHints,
      apiHintVerifier,
      metrics,
    );
  }

  /** Background work: the rule poster, the claim sweeper and (with a procedure) the sampling loop. */
  start(): void {
    const { settings, logger, domainSampler } = this.dependencies;
    this.poster?.start();
    this.#sweepTimer = setInterval(() => void this.sweepClaims(), settings.claimSweepIntervalMs);
    this.apiHintVerifier.start();
    if (domainSampler === undefined) {
      logger.warn('no downloader token: the sampling loop is off (claims and hints still work)');
      return;
    }
    this.loop.start();
  }

  async stop(): Promise<void> {
    clearInterval(this.#sweepTimer);
    await this.loop.stop();
    await this.apiHintVerifier.stop();
    await this.poster?.stop();
  }

  /**
   * Queues a domain for sampling, due now (as a domain candidate from the scheduler would be);
   * false when the sampler already knows it. Under the state lock, like every queue write.
   */
  enqueueDomain(domain: string, seenUrlList: readonly string[] = []): Promise<boolean> {
    return this.lock.run(() => this.queue.enqueue(domain, seenUrlList));
  }

  /** Tidies claims past their expiry (reads already treat them as expired). */
  async sweepClaims(): Promise<number> {
    try {
      return await this.lock.run(() => this.claims.sweepExpired());
    } catch (error) {
      this.dependencies.logger.error(
        { err: error },
        'claim sweep failed; retried at the next tick',
      );
      return 0;
    }
  }

  // ── export endpoints (consumer tokens) ───────────────────────────────────────────────────────

  async listExportedDomains(limit: number): Promise<Schemas['ExportedDomainsResponse']> {
    const rows = await this.claims.offered(limit);
    return { domain_list: rows.map(exportedDomainOf) };
  }

  async claimDomains(
    consumerId: string,
    request: Schemas['DomainClaimRequest'],
  ): Promise<Schemas['DomainClaimResponse']> {
    const taken = await this.lock.run(() =>
      this.claims.take(consumerId, request.domain_count, request.claim_ttl_seconds),
    );
    return claimResponseOf(taken);
  }

  submitVerdictHints(
    consumerId: string,
    request: Schemas['VerdictHintsRequest'],
  ): Promise<Schemas['VerdictHintsResponse']> {
    return this.hints.submit(consumerId, request.claim_id, request.hint_list);
  }

  // ── the downloader's API endpoint hints (service token) ─────────────────────────────────────

  submitApiEndpointHints(
    request: Schemas['ApiEndpointHintsRequest'],
  ): Promise<Schemas['ApiEndpointHintsResponse']> {
    return this.apiHints.submit(request.hint_list);
  }

  // ── operator endpoints (service token) ───────────────────────────────────────────────────────

  issueConsumerToken(consumerId: string): Promise<IssuedConsumerToken> {
    return this.consumerTokens.issue(consumerId);
  }

  async listConsumerTokens(): Promise<ConsumerTokenDocument[]> {
    return this.consumerTokens.list();
  }

  /** Revokes the token (refused from the next request on) and releases the consumer's claims. */
  async revokeConsumerToken(consumerId: string): Promise<ConsumerTokenDocument> {
    const row = await this.consumerTokens.revoke(consumerId);
    await this.lock.run(async () => {
      for (const domain of await this.claims.revokeConsumer(consumerId)) {
        await this.queue.restoreDeferred(domain);
      }
    });
    return row;
  }

  async domainClaimsView(limit: number): Promise<Schemas['DomainClaimsView']> {
    const nowMs = this.dependencies.clock.nowMs();
    const [claims, totals, recent] = await Promise.all([
      this.claims.listClaims(),
      this.ledger.windowTotals(OPERATOR_WINDOW_SECONDS),
      this.ledger.recent(limit),
    ]);
    return {
      summary: {
        claimed_domain_count: claimedDomainCountOf(claims, nowMs),
        active_claim_count: claims.filter(
          (claim) => claimRowOf(claim, nowMs).claim_state === 'active',
        ).length,
        hint_count: totals.hintCount,
        resolution_ratio: totals.hintCount === 0 ? 0 : totals.ruleWrittenCount / totals.hintCount,
        window_seconds: OPERATOR_WINDOW_SECONDS,
      },
      claim_list: claims.slice(0, limit).map((claim) => claimRowOf(claim, nowMs)),
      recent_hint_list: recent.map(hintRowOf),
      generated_at: timeTextOf(nowMs),
    };
  }

  async samplingQueueView(limit: number): Promise<Schemas['SamplingQueueView']> {
    const inProgress = this.loop.inProgressDomains;
    const dueCount = await this.queue.countDue(DUE_COUNT_CAP, inProgress);
    const inProgressTasks = (await this.queue.getMany([...inProgress])).slice(0, limit);
    const upcoming = (await this.queue.upcoming(limit + inProgress.size))
      .filter((task) => !inProgress.has(task.domain))
      .slice(0, Math.max(0, limit - inProgressTasks.length));
    const tasks = [...inProgressTasks, ...upcoming];
    const taskRules = await this.tables.rules.getMany(tasks.map((task) => task.domain));
    const counts = this.rules.verdictCounts();
    const ruledCount = this.rules.ruledDomainCount;
    const exportedCount = this.claims.exportedDomainCount;
    return {
      due_count: dueCount,
      in_progress_count: inProgress.size,
      waiting_count: Math.max(0, this.queue.taskCount - dueCount - inProgress.size),
      verdict_count_list: VERDICTS.map((verdict) => ({
        verdict,
        domain_count: counts.get(verdict) ?? 0,
      })),
      exported_domain_count: exportedCount,
      export_ratio: ruledCount === 0 ? 0 : Math.min(1, exportedCount / ruledCount),
      task_list: tasks.map((task, index) => ({
        domain: task.domain,
        due_at: task.due_at,
        is_in_progress: inProgress.has(task.domain),
        verdict: taskRules[index]?.verdict ?? null,
        undetermined_reason: taskRules[index]?.undetermined_reason ?? null,
        attempt_count: task.attempt_count,
      })),
      generated_at: timeTextOf(this.dependencies.clock.nowMs()),
    };
  }
}

/** Stands in when no procedure is configured; the loop is not started then, so it is never asked. */
const unavailableSampler: DomainSampler = {
  sample: () =>
    Promise.reject(new Error('no sampling procedure configured (downloader token missing)')),
};
