import { backoffCeiling } from '../../common/backoff/exponential-backoff';
import type { Verdict } from '../storage/sampler-documents';

const DAY_MS = 86_400_000;
const SECOND_MS = 1000;

/** When a domain is sampled again; configuration (README, sampler settings). */
export interface ResamplingPolicy {
  /** Re-sampling of undecided domains: the n-th unknown in a row waits the n-th step (the last repeats). */
  undecidedBackoffDays: readonly number[];
  /** Re-verification of decided domains (csr, partial, ssr). */
  reverifyPeriodDays: number;
  /** After a sampling that ended in an error (not a verdict): base · 2^(attempt − 1) … */
  samplingRetrySeconds: number;
  /** … capped here. */
  maxSamplingRetrySeconds: number;
}

/**
 * Due time after a verdict. `undecidedSampleCount` counts this one: 1 → the first step (30 days),
 * 2 → 90, 3 and later → 180. Never "given up": the last step repeats forever.
 */
export function dueAfterVerdictMs(
  policy: ResamplingPolicy,
  verdict: Verdict,
  undecidedSampleCount: number,
  nowMs: number,
): number {
  if (verdict !== 'unknown') return nowMs + policy.reverifyPeriodDays * DAY_MS;
  const steps = policy.undecidedBackoffDays;
  const step = steps[Math.min(Math.max(undecidedSampleCount, 1), steps.length) - 1];
  return nowMs + step * DAY_MS;
}

/** Due time after the `attemptCount`-th failed attempt in a row (1 = the first failure). */
export function dueAfterErrorMs(
  policy: ResamplingPolicy,
  attemptCount: number,
  nowMs: number,
): number {
  const seconds = backoffCeiling(
    { initial: policy.samplingRetrySeconds, cap: policy.maxSamplingRetrySeconds },
    attemptCount - 1,
  );
  return nowMs + seconds * SECOND_MS;
}
