/**
 * Everything the sampling procedure decides by number lives here: the verdict thresholds, the
 * language table and the request budget. One typed object with documented defaults, so the
 * service can expose it as settings and the calibration can print what it ran with.
 */

/**
 * Thresholds of the page judgement (see page-judgement.ts for the measures). Shares are fractions
 * of tokens (words; character bigrams for CJK scripts) of the text a reader sees.
 */
export interface VerdictThresholds {
  /**
   * A rendered page with fewer content tokens than this (and a plain page with fewer too) has no
   * content to judge: it is "thin". Default 12.
   */
  readonly minContentTokenCount: number;
  /**
   * ssr when at most this share of the rendered main content is missing from the plain page's
   * visible text. Default 0.25: a server page may well gain a widget or two from scripts.
   */
  readonly ssrMaxRenderOnlyShare: number;
  /**
   * csr (or partial, see below) when at least this share of the rendered main content exists only
   * after rendering. Between the two shares the page is partial. Default 0.7.
   */
  readonly csrMinRenderOnlyShare: number;
  /**
   * A page whose main content is render-only is still partial, not csr, when the server sent a
   * real shell: at least this share of everything visible after rendering (header, navigation,
   * footer included) was already visible in the plain page… Default 0.15.
   */
  readonly partialMinServerShare: number;
  /** …and at least this many tokens of it. Default 25. */
  readonly partialMinServerTokenCount: number;
  /**
   * Both pages carry content but the rendered one kept less than this share of the plain page's
   * content: the page turned into another one (a script replaced it). Default 0.3.
   */
  readonly inconsistentMaxPlainSurvival: number;
  /**
   * A page with a password field is a login wall when its content (outside forms) has fewer
   * tokens than this. Default 120.
   */
  readonly loginMaxContentTokenCount: number;
  /**
   * A verdict needs at least this share of the decisive pages (csr and partial count as one family
   * against ssr); below it the samples disagree (render_inconsistent). Default 0.66.
   */
  readonly majorityShare: number;
}

export interface LanguagePolicy {
  /** `min_interval_ms` for sites in this language when robots.txt asks for nothing longer. */
  readonly defaultIntervalMs: number;
  /**
   * The thresholds were measured on sites in this language (the calibration corpus has some). A
   * site in a language without calibration ends `unknown` / `language_not_calibrated`.
   */
  readonly isCalibrated: boolean;
  /** Per-language overrides of the thresholds; absent = the common ones. */
  readonly thresholds?: Partial<VerdictThresholds>;
}

export interface SamplingPolicy {
  readonly thresholds: VerdictThresholds;
  /**
   * Primary language subtag (lowercase, `de` for `de-AT`) → its policy. The procedure reads the
   * page's `lang` attribute; a page that declares none uses `undeclaredLanguage`.
   */
  readonly languageTable: Readonly<Record<string, LanguagePolicy>>;
  /** For pages without a `lang` attribute. Tokenization handles Latin and CJK scripts alike. */
  readonly undeclaredLanguage: LanguagePolicy;
  /**
   * The interval sent before the site's language is known (robots.txt, sitemap.xml, the first
   * page), still raised to robots' Crawl-delay once that is known. Default 1000 ms.
   */
  readonly languageIndependentIntervalMs: number;
  /** Most pages judged per domain (each fetched plain and rendered). Default 4. */
  readonly maxSamplePageCount: number;
  /** Sampling stops early once this many pages agree (and none disagrees). Default 2. */
  readonly agreeingPageCount: number;
  /** Most page URLs tried per domain, counting pages that failed. Default 6. */
  readonly maxPageAttemptCount: number;
  /** Most URLs read from a sitemap. Default 2000. */
  readonly maxSitemapUrlCount: number;
  /** `timeout_ms` of plain fetches (robots.txt, sitemap.xml, pages). Default 15000. */
  readonly plainTimeoutMs: number;
  /** `timeout_ms` of renders. Default 30000. */
  readonly renderTimeoutMs: number;
  /**
   * A page that rendered without content but runs scripts is rendered once more, waiting up to
   * this long for content elements to appear (content that arrives after a delay). Default 6000.
   */
  readonly delayedContentWaitMs: number;
  /**
   * Longest total time one domain may spend waiting out the downloader's 429s before the
   * procedure gives up on it (it never sends before `retry_after_seconds`). Default 120000.
   */
  readonly maxRateLimitWaitMs: number;
}

export const DEFAULT_VERDICT_THRESHOLDS: VerdictThresholds = {
  minContentTokenCount: 12,
  ssrMaxRenderOnlyShare: 0.25,
  csrMinRenderOnlyShare: 0.7,
  partialMinServerShare: 0.15,
  partialMinServerTokenCount: 25,
  inconsistentMaxPlainSurvival: 0.3,
  loginMaxContentTokenCount: 120,
  majorityShare: 0.66,
};

const calibrated = (defaultIntervalMs: number): LanguagePolicy => ({
  defaultIntervalMs,
  isCalibrated: true,
});

/**
 * The languages the calibration corpus covers (Latin-script: en, de, fr, es; CJK: zh, ja). One
 * second between requests is the common politeness default of large crawlers; nothing here is
 * known to need more, so every language starts there and operators raise it per market.
 */
export const DEFAULT_LANGUAGE_TABLE: Readonly<Record<string, LanguagePolicy>> = {
  en: calibrated(1000),
  de: calibrated(1000),
  fr: calibrated(1000),
  es: calibrated(1000),
  zh: calibrated(1000),
  ja: calibrated(1000),
};

export const DEFAULT_SAMPLING_POLICY: SamplingPolicy = {
  thresholds: DEFAULT_VERDICT_THRESHOLDS,
  languageTable: DEFAULT_LANGUAGE_TABLE,
  undeclaredLanguage: calibrated(1000),
  languageIndependentIntervalMs: 1000,
  maxSamplePageCount: 4,
  agreeingPageCount: 2,
  maxPageAttemptCount: 6,
  maxSitemapUrlCount: 2000,
  plainTimeoutMs: 15_000,
  renderTimeoutMs: 30_000,
  delayedContentWaitMs: 6000,
  maxRateLimitWaitMs: 120_000,
};

/** Overrides on top of the defaults; `thresholds` merge field by field. */
export type SamplingPolicyOverrides = Partial<Omit<SamplingPolicy, 'thresholds'>> & {
  readonly thresholds?: Partial<VerdictThresholds>;
};

export function samplingPolicyWith(overrides: SamplingPolicyOverrides = {}): SamplingPolicy {
  const policy: SamplingPolicy = {
    ...DEFAULT_SAMPLING_POLICY,
    ...overrides,
    thresholds: { ...DEFAULT_VERDICT_THRESHOLDS, ...overrides.thresholds },
  };
  validateSamplingPolicy(policy);
  return policy;
}

/** Every language (and the language-independent interval) at one interval: tests, calibration. */
export function withUniformIntervalMs(policy: SamplingPolicy, intervalMs: number): SamplingPolicy {
  const table = Object.fromEntries(
    Object.entries(policy.languageTable).map(([language, entry]) => [
      language,
      { ...entry, defaultIntervalMs: intervalMs },
    ]),
  );
  return {
    ...policy,
    languageTable: table,
    undeclaredLanguage: { ...policy.undeclaredLanguage, defaultIntervalMs: intervalMs },
    languageIndependentIntervalMs: intervalMs,
  };
}

export class SamplingPolicyError extends Error {
  constructor(message: string) {
    super(`sampling policy: ${message}`);
    this.name = 'SamplingPolicyError';
  }
}

function requireShare(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) throw new SamplingPolicyError(`${name} must be within 0–1`);
}

function requireWhole(name: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum) {
    throw new SamplingPolicyError(`${name} must be a whole number ≥ ${minimum}`);
  }
}

function validateThresholds(prefix: string, thresholds: VerdictThresholds): void {
  requireWhole(`${prefix}minContentTokenCount`, thresholds.minContentTokenCount, 1);
  requireShare(`${prefix}ssrMaxRenderOnlyShare`, thresholds.ssrMaxRenderOnlyShare);
  requireShare(`${prefix}csrMinRenderOnlyShare`, thresholds.csrMinRenderOnlyShare);
  requireShare(`${prefix}partialMinServerShare`, thresholds.partialMinServerShare);
  requireWhole(`${prefix}partialMinServerTokenCount`, thresholds.partialMinServerTokenCount, 0);
  requireShare(`${prefix}inconsistentMaxPlainSurvival`, thresholds.inconsistentMaxPlainSurvival);
  requireWhole(`${prefix}loginMaxContentTokenCount`, thresholds.loginMaxContentTokenCount, 0);
  requireShare(`${prefix}majorityShare`, thresholds.majorityShare);
  if (thresholds.ssrMaxRenderOnlyShare >= thresholds.csrMinRenderOnlyShare) {
    throw new SamplingPolicyError(
      `${prefix}ssrMaxRenderOnlyShare must be below csrMinRenderOnlyShare (partial lies between)`,
    );
  }
}

/** Throws a SamplingPolicyError naming the first setting that makes no sense. */
export function validateSamplingPolicy(policy: SamplingPolicy): void {
  validateThresholds('', policy.thresholds);
  for (const [language, entry] of Object.entries(policy.languageTable)) {
    if (!/^[a-z]{2,3}$/.test(language)) {
      throw new SamplingPolicyError(`language table key "${language}" is not a primary subtag`);
    }
    requireWhole(`languageTable.${language}.defaultIntervalMs`, entry.defaultIntervalMs, 0);
    validateThresholds(`languageTable.${language}.`, {
      ...policy.thresholds,
      ...entry.thresholds,
    });
  }
  requireWhole(
    'undeclaredLanguage.defaultIntervalMs',
    policy.undeclaredLanguage.defaultIntervalMs,
    0,
  );
  requireWhole('languageIndependentIntervalMs', policy.languageIndependentIntervalMs, 0);
  requireWhole('maxSamplePageCount', policy.maxSamplePageCount, 1);
  requireWhole('agreeingPageCount', policy.agreeingPageCount, 1);
  requireWhole('maxPageAttemptCount', policy.maxPageAttemptCount, policy.maxSamplePageCount);
  requireWhole('maxSitemapUrlCount', policy.maxSitemapUrlCount, 1);
  requireWhole('plainTimeoutMs', policy.plainTimeoutMs, 1000);
  requireWhole('renderTimeoutMs', policy.renderTimeoutMs, 1000);
  requireWhole('delayedContentWaitMs', policy.delayedContentWaitMs, 0);
  requireWhole('maxRateLimitWaitMs', policy.maxRateLimitWaitMs, 0);
  if (policy.agreeingPageCount > policy.maxSamplePageCount) {
    throw new SamplingPolicyError('agreeingPageCount must not exceed maxSamplePageCount');
  }
}

/** The language's entry, or undefined for a declared language the table does not list. */
export function languagePolicyOf(
  policy: SamplingPolicy,
  language: string | null,
): LanguagePolicy | undefined {
  return language === null ? policy.undeclaredLanguage : policy.languageTable[language];
}

/** The thresholds in force for a language (uncalibrated languages get the common ones). */
export function thresholdsFor(policy: SamplingPolicy, language: string | null): VerdictThresholds {
  return { ...policy.thresholds, ...languagePolicyOf(policy, language)?.thresholds };
}
