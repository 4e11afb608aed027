import type { HintDecision, UndeterminedReason, Verdict } from '../storage/sampler-documents';

export interface ReviewedHint {
  verdict: Verdict;
  undeterminedReason: UndeterminedReason | null;
  confidenceScore: number;
}

/**
 * The sampler's policy for one hint (CONTRACT.md §四, "How the sampler reviews one hint"), for a
 * hint that is not a repeat. External parties only suggest; this decides.
 *
 * - Outside the claim (not one of its domains, or the claim no longer live): rejected.
 * - `consumer_capability_exceeded`: the consumer could not decide either — back to the backoff
 *   re-sampling, never "to a human"; its confidence says nothing to act on, so it is not judged.
 * - Below the confidence threshold: rejected (counted; the threshold is ours, not the contract's).
 * - Anything else becomes a rule: csr / partial / ssr decide the domain; unknown with another
 *   reason (domain_not_resolvable, login_required, …) is written as the rule's reason and the
 *   domain stays on the backoff schedule.
 */
export function reviewHint(
  hint: ReviewedHint,
  isInLiveClaim: boolean,
  confidenceThreshold: number,
): HintDecision {
  if (!isInLiveClaim) return 'rejected_not_claimed';
  if (hint.verdict === 'unknown' && hint.undeterminedReason === 'consumer_capability_exceeded') {
    return 'returned_to_backoff';
  }
  if (hint.confidenceScore < confidenceThreshold) return 'rejected_low_confidence';
  return 'rule_written';
}

export function isAcceptedDecision(decision: HintDecision): boolean {
  return decision === 'rule_written' || decision === 'returned_to_backoff';
}
