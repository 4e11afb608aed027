import type {
  DomainSampleOutcome,
  DomainSampler,
} from '../../services/sampler/sampling/domain-sampler';

/** One domain to sample, with the answer a human gave it. */
export interface CalibrationCase {
  readonly name: string;
  readonly domain: string;
  readonly seenUrlList: readonly string[];
  /** `csr`, `ssr`, `partial` or `unknown:<reason>`; null for the unseen set (judged by hand). */
  readonly expected: string | null;
}

export interface CalibrationResult {
  readonly testCase: CalibrationCase;
  /** null when the procedure threw (the error is in `error`). */
  readonly outcome: DomainSampleOutcome | null;
  readonly error: string | null;
  readonly elapsedMs: number;
}

/** `csr`, `ssr`, `partial` or `unknown:<reason>`: the key the confusion matrix uses. */
export function outcomeKey(
  outcome: Pick<DomainSampleOutcome, 'verdict' | 'undeterminedReason'>,
): string {
  return outcome.verdict === 'unknown' ? `unknown:${outcome.undeterminedReason}` : outcome.verdict;
}

/**
 * Samples every case with at most `concurrency` domains at once (each domain's own requests are
 * sequential inside the procedure), printing a line as each finishes. A domain taking longer than
 * `domainTimeoutMs` is aborted and reported as an error.
 */
export async function runCalibration(options: {
  readonly sampler: DomainSampler;
  readonly cases: readonly CalibrationCase[];
  readonly concurrency: number;
  readonly domainTimeoutMs: number;
  readonly signal: AbortSignal;
  readonly onResult: (result: CalibrationResult, doneCount: number) => void;
}): Promise<CalibrationResult[]> {
  const results: CalibrationResult[] = new Array(options.cases.length);
  let nextIndex = 0;
  let doneCount = 0;
  const worker = async (): Promise<void> => {
    while (nextIndex < options.cases.length && !options.signal.aborted) {
      const index = nextIndex;
      nextIndex += 1;
      const testCase = options.cases[index];
      const startedAt = Date.now();
      const signal = AbortSignal.any([
        options.signal,
        AbortSignal.timeout(options.domainTimeoutMs),
      ]);
      let result: CalibrationResult;
      try {
        const outcome = await options.sampler.sample({
          domain: testCase.domain,
          seenUrlList: testCase.seenUrlList,
          signal,
        });
        result = { testCase, outcome, error: null, elapsedMs: Date.now() - startedAt };
      } catch (error) {
        result = {
          testCase,
          outcome: null,
          error: error instanceof Error ? error.message : String(error),
          elapsedMs: Date.now() - startedAt,
        };
      }
      results[index] = result;
      doneCount += 1;
      options.onResult(result, doneCount);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return results.filter((result) => result !== undefined);
}
