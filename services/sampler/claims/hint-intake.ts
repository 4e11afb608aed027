import type { Logger } from 'pino';
import type { components } from '../../../generated/sampler/types';
import { primaryKey } from '../../common/storage/primary-key';
import { dueAfterVerdictMs, type ResamplingPolicy } from '../queue/resampling-schedule';
import type { SampleQueue } from '../queue/sample-queue';
import type { RuleBook } from '../rules/rule-book';
import type { SamplerMetrics } from '../sampler-metrics';
import { timeTextOf, type Clock } from '../sampler-clock';
import type { StateLock } from '../state-lock';
import type { VerdictHintResultDocument } from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { claimStateAt, type ClaimBook } from './claim-book';
import { ClaimConsumerMismatchError, ClaimNotFoundError, InvalidHintError } from './claim-errors';
import { isAcceptedDecision, reviewHint } from './hint-review';
import type { HintLedger } from './hint-ledger';

type VerdictHint = components['schemas']['VerdictHint'];
export type VerdictHintsResponse = components['schemas']['VerdictHintsResponse'];

export interface HintIntakeDependencies {
  tables: SamplerTables;
  lock: StateLock;
  clock: Clock;
  logger: Logger;
  metrics: SamplerMetrics;
  claims: ClaimBook;
  rules: RuleBook;
  queue: SampleQueue;
  ledger: HintLedger;
  resampling: ResamplingPolicy;
  /** Hints below this confidence_score are rejected (sampler policy, not contract). */
  confidenceThreshold: number;
}

/** `example.com.` and `Example.COM` are the claim's `example.com` (CONTRACT.md §十). */
function domainOf(hint: VerdictHint): string {
  return hint.domain.trim().toLowerCase().replace(/\.$/, '');
}

function assertWellFormed(hintList: readonly VerdictHint[]): void {
  hintList.forEach((hint, index) => {
    const hasReason = hint.undetermined_reason !== null;
    if ((hint.verdict === 'unknown') !== hasReason) {
      throw new InvalidHintError(
        `hint_list[${index}]: undetermined_reason is required exactly when verdict is unknown ` +
          `(verdict ${hint.verdict}, undetermined_reason ${String(hint.undetermined_reason)})`,
      );
    }
  });
}

/**
 * POST /v1/domain-verdict-hints: the consumer suggests, the sampler decides (claims/hint-review.ts)
 * and, for a confirmed hint, writes the rule through the same path as a sampled one.
 *
 * Idempotent by `claim_id` + `domain` (seed 002's method): the key travels in the payload; a cheap
 * pre-check reads every key of the batch at once; the decision is stored with a compare-and-swap
 * that only succeeds for the first arrival (the uniqueness backstop — a lost race is "duplicate,
 * done", never a retry). The decision is recorded before its effects and marked applied after
 * them, so a repeat after a crash in between finishes the effects instead of losing them.
 */
export class HintIntake {
  constructor(private readonly dependencies: HintIntakeDependencies) {}

  async submit(
    consumerId: string,
    claimId: string,
    hintList: readonly VerdictHint[],
  ): Promise<VerdictHintsResponse> {
    const { tables, lock } = this.dependencies;
    assertWellFormed(hintList);
    const claim = await tables.claims.get(claimId);
    if (claim === undefined) throw new ClaimNotFoundError(claimId);
    if (claim.consumer_id !== consumerId) throw new ClaimConsumerMismatchError(claimId);

    const domains = hintList.map(domainOf);
    const known = await tables.hintResults.getMany(
      domains.map((domain) => primaryKey(claimId, domain)),
    );
    const answer: VerdictHintsResponse = {
      accepted_count: 0,
      rejected_count: 0,
      duplicate_count: 0,
    };
    const seenInBatch = new Set<string>();
    for (const [index, hint] of hintList.entries()) {
      const domain = domains[index];
      if (seenInBatch.has(domain)) {
        this.#countDuplicate(answer);
        continue;
      }
      seenInBatch.add(domain);
      const previous = known[index];
      if (previous !== undefined) {
        if (!previous.is_applied) await lock.run(() => this.#apply(previous));
        this.#countDuplicate(answer);
        continue;
      }
      const result = await lock.run(() => this.#decide(consumerId, claimId, domain, hint));
      if (result === 'duplicate') this.#countDuplicate(answer);
      else if (isAcceptedDecision(result)) answer.accepted_count += 1;
      else answer.rejected_count += 1;
    }
    return answer;
  }

  #countDuplicate(answer: VerdictHintsResponse): void {
    answer.duplicate_count += 1;
    this.dependencies.metrics.hintDuplicateCount.inc();
  }

  async #decide(
    consumerId: string,
    claimId: string,
    domain: string,
    hint: VerdictHint,
  ): Promise<VerdictHintResultDocument['hint_decision'] | 'duplicate'> {
    const { tables, clock, confidenceThreshold, ledger, metrics, logger } = this.dependencies;
    const nowMs = clock.nowMs();
    // Read again under the lock: an earlier hint of this batch may have released the claim.
    const claim = await tables.claims.get(claimId);
    const isInLiveClaim =
      claim !== undefined &&
      claimStateAt(claim, nowMs) === 'active' &&
      claim.domain_list.includes(domain) &&
      !claim.reported_domain_list.includes(domain);
    const decision = reviewHint(
      {
        verdict: hint.verdict,
        undeterminedReason: hint.undetermined_reason,
        confidenceScore: hint.confidence_score,
      },
      isInLiveClaim,
      confidenceThreshold,
    );
    const result: VerdictHintResultDocument = {
      claim_id: claimId,
      domain,
      consumer_id: consumerId,
      verdict: hint.verdict,
      undetermined_reason: hint.undetermined_reason,
      confidence_score: hint.confidence_score,
      hint_decision: decision,
      received_at: timeTextOf(nowMs),
      is_applied: false,
    };
    const { isSwapped } = await tables.hintResults.compareAndSwap(
      primaryKey(claimId, domain),
      undefined,
      result,
    );
    if (!isSwapped) return 'duplicate';
    await ledger.index(result, nowMs);
    metrics.hintCount.inc({ hint_decision: decision });
    logger.info(
      {
        claim_id: claimId,
        consumer_id: consumerId,
        domain,
        verdict: hint.verdict,
        undetermined_reason: hint.undetermined_reason,
        confidence_score: hint.confidence_score,
        hint_decision: decision,
      },
      'verdict hint reviewed',
    );
    await this.#apply(result);
    return decision;
  }

  /** Carries out a recorded decision; safe to run again. */
  async #apply(result: VerdictHintResultDocument): Promise<void> {
    const { tables, claims, rules, queue, resampling, clock } = this.dependencies;
    const { domain, hint_decision: decision } = result;
    if (decision !== 'rejected_not_claimed') {
      await claims.handBack(result.claim_id, domain);
      // Back to the backoff schedule as it stood: due now if it fell due while held.
      await queue.restoreDeferred(domain);
    }
    if (decision === 'rule_written') {
      const exported = await claims.getDomain(domain);
      const current = await rules.get(domain);
      // The consumer only names a verdict: the interval and robots data stay the sampler's own.
      const minIntervalMs = exported?.min_interval_ms ?? current?.min_interval_ms;
      if (minIntervalMs === undefined) {
        throw new Error(`no interval known for ${domain}; a claimed domain always has one`);
      }
      const robotsTxt = exported?.robots_txt ?? current?.robots_txt ?? null;
      await rules.record({
        domain,
        verdict: result.verdict,
        undeterminedReason: result.undetermined_reason,
        minIntervalMs,
        waitSelector: null,
        robotsTxt,
        origin: 'verdict_hint',
        confidenceScore: result.confidence_score,
      });
      if (result.verdict === 'unknown' && result.undetermined_reason !== null) {
        await claims.markUndecided(domain, {
          undeterminedReason: result.undetermined_reason,
          minIntervalMs,
          robotsTxt,
        });
      } else {
        await claims.markDecided(domain);
        const task = await queue.get(domain);
        if (task !== undefined) {
          const nowMs = clock.nowMs();
          await queue.reschedule(task, dueAfterVerdictMs(resampling, result.verdict, 0, nowMs), {
            undecided_sample_count: 0,
            attempt_count: 0,
            deferred_due_at: null,
          });
        }
      }
    }
    await tables.hintResults.put(primaryKey(result.claim_id, domain), {
      ...result,
      is_applied: true,
    });
  }
}
