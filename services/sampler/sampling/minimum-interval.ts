import { languagePolicyOf, type SamplingPolicy } from './sampling-policy';

export interface IntervalInputs {
  /** robots.txt's Crawl-delay for our group, in seconds; null when it sets none (or is unknown). */
  readonly crawlDelaySeconds: number | null;
  /**
   * The site's primary language subtag; null when the page declares none; undefined while it is
   * not known yet (before the first page) — the language-independent default applies then.
   */
  readonly language: string | null | undefined;
}

/**
 * `min_interval_ms = max(robots Crawl-delay × 1000, the language's default)` — the one place in
 * the system where that max is taken (CONTRACT.md §二: the scheduler and the downloader use the
 * value as is, never take a max again and never lower it). A language missing from the table
 * (not calibrated) still gets the language-independent default, never less.
 */
export function minimumIntervalMs(inputs: IntervalInputs, policy: SamplingPolicy): number {
  const languageDefaultMs =
    inputs.language === undefined
      ? policy.languageIndependentIntervalMs
      : (languagePolicyOf(policy, inputs.language)?.defaultIntervalMs ??
        policy.languageIndependentIntervalMs);
  const crawlDelayMs =
    inputs.crawlDelaySeconds !== null && Number.isFinite(inputs.crawlDelaySeconds)
      ? Math.ceil(Math.max(0, inputs.crawlDelaySeconds) * 1000)
      : 0;
  return Math.max(crawlDelayMs, languageDefaultMs);
}
