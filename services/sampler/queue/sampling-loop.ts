import type { Logger } from 'pino';
import type { components } from '../../../generated/scheduler/types';
import type { ClaimBook } from '../claims/claim-book';
import type { RuleBook } from '../rules/rule-book';
import type { SamplerMetrics } from '../sampler-metrics';
import { msOfTimeText, timeTextOf, type Clock } from '../sampler-clock';
import type { DomainSampleOutcome, DomainSampler } from '../sampling/domain-sampler';
import type { StateLock } from '../state-lock';
import type { SampleTaskDocument } from '../storage/sampler-documents';
import { dueAfterErrorMs, dueAfterVerdictMs, type ResamplingPolicy } from './resampling-schedule';
import type { SampleQueue } from './sample-queue';

type DomainCandidate = components['schemas']['DomainCandidate'];

/** GET /v1/domain-candidates on the scheduler. */
export type ListCandidates = (limit: number, signal: AbortSignal) => Promise<DomainCandidate[]>;

export interface SamplingLoopSettings {
  /** Domains sampled at once. */
  concurrency: number;
  /** How often the queue is looked at for due domains (also after each sampling). */
  tickIntervalMs: number;
  /** How often the scheduler is asked for new domain candidates. */
  candidatePollIntervalMs: number;
  /** Candidates asked for per call (1–1000). */
  candidatePageSize: number;
}

export interface SamplingLoopDependencies {
  lock: StateLock;
  clock: Clock;
  logger: Logger;
  metrics: SamplerMetrics;
  queue: SampleQueue;
  claims: ClaimBook;
  rules: RuleBook;
  sampler: DomainSampler;
  resampling: ResamplingPolicy;
  settings: SamplingLoopSettings;
  /** Absent: no candidates are pulled (no scheduler token); queued domains are still sampled. */
  listCandidates?: ListCandidates;
}

/**
 * The sampling loop: domain candidates from the scheduler become `domain_sample_task` rows; due
 * tasks are sampled through the injected DomainSampler, at most `concurrency` at once; each outcome
 * becomes a rule (RuleBook → outbox → POST /v1/rules) and the task's next due time — the
 * re-verification period for a verdict, the 30 / 90 / 180 day backoff for `unknown` (and the domain
 * is exported meanwhile), a short growing retry for an error.
 *
 * A claimed domain gets no request: a due task whose domain a live claim holds is not started (it
 * waits until the claim's expiry), and the check and the start happen under the state lock that
 * claims take too, so a claim never takes a domain being sampled.
 */
export class SamplingLoop {
  readonly #inProgress = new Map<string, AbortController>();
  readonly #running = new Set<Promise<void>>();
  readonly #stopController = new AbortController();
  #timers: NodeJS.Timeout[] = [];
  #tickPromise: Promise<void> | undefined;
  #isTickWanted = false;
  #isPulling = false;

  constructor(private readonly dependencies: SamplingLoopDependencies) {}

  isSampling(domain: string): boolean {
    return this.#inProgress.has(domain);
  }

  get inProgressDomains(): ReadonlySet<string> {
    return new Set(this.#inProgress.keys());
  }

  start(): void {
    const { settings, listCandidates } = this.dependencies;
    this.#timers.push(setInterval(() => void this.tick(), settings.tickIntervalMs));
    if (listCandidates !== undefined) {
      this.#timers.push(
        setInterval(() => void this.pullCandidates(), settings.candidatePollIntervalMs),
      );
      void this.pullCandidates();
    }
    void this.tick();
  }

  /** Stops pulling and starting; samplings in flight are aborted before their next request. */
  async stop(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    this.#stopController.abort();
    for (const controller of this.#inProgress.values()) controller.abort();
    await this.settle();
  }

  /** Resolves once no sampling is in flight (tests, and the operator's "nothing running"). */
  async settle(): Promise<void> {
    while (this.#tickPromise !== undefined || this.#running.size > 0) {
      await this.#tickPromise;
      await Promise.allSettled([...this.#running]);
    }
  }

  /** One call of GET /v1/domain-candidates; new domains are queued, due now. */
  async pullCandidates(): Promise<void> {
    const { listCandidates, settings, queue, rules, lock, metrics, logger } = this.dependencies;
    if (listCandidates === undefined || this.#isPulling || this.#stopController.signal.aborted) {
      return;
    }
    this.#isPulling = true;
    try {
      const candidates = await listCandidates(
        settings.candidatePageSize,
        this.#stopController.signal,
      );
      let queuedCount = 0;
      for (const candidate of candidates) {
        const result = await lock.run(async () => {
          if (await queue.enqueue(candidate.domain, candidate.sample_url_list)) return 'queued';
          // Known, and the scheduler still lists it: if we hold a rule, the scheduler lost it.
          return (await rules.resend(candidate.domain)) ? 'rule_resent' : 'known';
        });
        metrics.candidateCount.inc({ result });
        if (result === 'queued') queuedCount += 1;
        if (result === 'rule_resent') {
          logger.warn({ domain: candidate.domain }, 'the scheduler lost this rule; sent again');
        }
      }
      if (queuedCount > 0) {
        logger.info({ new_domain_count: queuedCount }, 'new domain candidates queued for sampling');
        void this.tick();
      }
    } catch (error) {
      if (!this.#stopController.signal.aborted) {
        logger.warn({ err: error }, 'GET /v1/domain-candidates failed; trying again later');
      }
    } finally {
      this.#isPulling = false;
    }
  }

  /** Starts due samplings up to the concurrency (a call during a tick asks for one more pass). */
  tick(): Promise<void> {
    if (this.#tickPromise !== undefined) {
      this.#isTickWanted = true;
      return this.#tickPromise;
    }
    this.#tickPromise = (async () => {
      try {
        do {
          this.#isTickWanted = false;
          await this.#startDue();
        } while (this.#isTickWanted && !this.#stopController.signal.aborted);
      } catch (error) {
        this.dependencies.logger.error({ err: error }, 'sampling queue tick failed');
      } finally {
        this.#tickPromise = undefined;
      }
    })();
    return this.#tickPromise;
  }

  async #startDue(): Promise<void> {
    const { lock, queue, claims, metrics, settings } = this.dependencies;
    const room = settings.concurrency - this.#inProgress.size;
    if (room <= 0 || this.#stopController.signal.aborted) return;
    const started = await lock.run(async () => {
      const due = await queue.due(room, new Set(this.#inProgress.keys()));
      const toStart: SampleTaskDocument[] = [];
      for (const task of due) {
        const held = await claims.isClaimed(task.domain);
        if (held?.claim_expires_at) {
          // One exit at a time: the consumer holds it. Look again when the claim lapses (or when
          // it ends early: then the deferred due time applies again).
          await queue.reschedule(task, msOfTimeText(held.claim_expires_at), {
            deferred_due_at: task.deferred_due_at ?? task.due_at,
          });
          metrics.claimedSkipCount.inc();
          continue;
        }
        this.#inProgress.set(task.domain, new AbortController());
        toStart.push(task);
      }
      return toStart;
    });
    metrics.samplingInProgress.set(this.#inProgress.size);
    for (const task of started) {
      const running = this.#sample(task).finally(() => {
        this.#running.delete(running);
        this.#inProgress.delete(task.domain);
        metrics.samplingInProgress.set(this.#inProgress.size);
        void this.tick();
      });
      this.#running.add(running);
    }
  }

  async #sample(task: SampleTaskDocument): Promise<void> {
    const { sampler, lock, logger, metrics } = this.dependencies;
    const controller = this.#inProgress.get(task.domain) as AbortController;
    const startedAtMs = Date.now();
    logger.info({ domain: task.domain }, 'sampling started');
    let outcome: DomainSampleOutcome;
    try {
      outcome = await sampler.sample({
        domain: task.domain,
        seenUrlList: task.seen_url_list,
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) {
        // Shutdown: the task keeps its past due time and is sampled again at the next start.
        logger.info({ domain: task.domain }, 'sampling aborted');
        return;
      }
      metrics.samplingErrorCount.inc();
      await lock.run(() => this.#recordError(task.domain, error));
      return;
    }
    await lock.run(() => this.#recordOutcome(outcome));
    metrics.samplingCount.inc({ verdict: outcome.verdict });
    logger.info(
      {
        domain: outcome.domain,
        verdict: outcome.verdict,
        undetermined_reason: outcome.undeterminedReason,
        wait_selector: outcome.waitSelector,
        min_interval_ms: outcome.minIntervalMs,
        confidence_score: outcome.confidenceScore,
        render_count: outcome.renderCount,
        plain_fetch_count: outcome.plainFetchCount,
        elapsed_ms: Date.now() - startedAtMs,
      },
      'domain sampled',
    );
  }

  async #recordOutcome(outcome: DomainSampleOutcome): Promise<void> {
    const { queue, claims, rules, clock, resampling } = this.dependencies;
    const nowMs = clock.nowMs();
    const task = await queue.get(outcome.domain);
    if (task === undefined) return;
    await rules.record({
      domain: outcome.domain,
      verdict: outcome.verdict,
      undeterminedReason: outcome.undeterminedReason,
      minIntervalMs: outcome.minIntervalMs,
      waitSelector: outcome.waitSelector,
      robotsTxt: outcome.robotsTxt,
      origin: 'sampling',
      confidenceScore: outcome.confidenceScore,
    });
    const isUndecided = outcome.verdict === 'unknown';
    const undecidedSampleCount = isUndecided ? task.undecided_sample_count + 1 : 0;
    if (isUndecided) {
      await claims.markUndecided(outcome.domain, {
        undeterminedReason: outcome.undeterminedReason ?? 'sample_insufficient',
        minIntervalMs: outcome.minIntervalMs,
        robotsTxt: outcome.robotsTxt,
      });
    } else {
      await claims.markDecided(outcome.domain);
    }
    await queue.reschedule(
      task,
      dueAfterVerdictMs(resampling, outcome.verdict, undecidedSampleCount, nowMs),
      {
        attempt_count: 0,
        undecided_sample_count: undecidedSampleCount,
        sampled_at: timeTextOf(nowMs),
        deferred_due_at: null,
      },
    );
  }

  async #recordError(domain: string, error: unknown): Promise<void> {
    const { queue, clock, resampling, logger } = this.dependencies;
    const task = await queue.get(domain);
    if (task === undefined) return;
    const attemptCount = task.attempt_count + 1;
    const next = await queue.reschedule(
      task,
      dueAfterErrorMs(resampling, attemptCount, clock.nowMs()),
      { attempt_count: attemptCount, deferred_due_at: null },
    );
    logger
      .child({ domain, attempt_count: attemptCount, due_at: next.due_at })
      .warn({ err: error }, 'sampling failed without a verdict; retried later');
  }
}
