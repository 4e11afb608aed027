import {
  parseAs,
  setting,
  SettingError,
  type SettingParser,
  type SettingValues,
} from '../common/config/settings';
import { readFileSync } from 'node:fs';
import type { ResamplingPolicy } from './queue/resampling-schedule';
import {
  samplingPolicyWith,
  type SamplingPolicy,
  type SamplingPolicyOverrides,
} from './sampling/sampling-policy';
import type { SamplingLoopSettings } from './queue/sampling-loop';
import type { ApiHintVerifierSettings } from './api-hints/api-hint-verifier';
import { DEFAULT_SAMPLING_POLICY } from './sampling/sampling-policy';

/*
 * The sampler's own flags and environment variables, declared once each and read by the shared
 * settings module (services/common/config/settings.ts): a flag wins over its variable, the variable
 * over the default; a wrong value stops the start naming the setting.
 */

const DAY_SECONDS = 86_400;

/**
 * `30,90,180`: days, each step at least as long as the one before. Fractions are allowed (down to
 * about 9 s) so that a demo or a test can watch a re-sampling happen.
 */
const backoffDays: SettingParser<number[]> = (text, name) => {
  const steps = text.split(',').map((step) => step.trim());
  const days = steps.map((step) => parseAs.number(0.0001, 3650)(step, name));
  if (days.length === 0 || days.some((day, index) => index > 0 && day < days[index - 1])) {
    throw new SettingError(
      `${name} must be a comma-separated list of growing day counts, got "${text}"`,
    );
  }
  return days;
};

/** A JSON file of SamplingPolicyOverrides (thresholds, language table, budgets) over the defaults. */
const samplingPolicyFile: SettingParser<SamplingPolicy> = (text, name) => {
  let overrides: SamplingPolicyOverrides;
  try {
    overrides = JSON.parse(readFileSync(text, 'utf8')) as SamplingPolicyOverrides;
  } catch (error) {
    throw new SettingError(
      `${name}: cannot read ${text} as JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  try {
    return samplingPolicyWith(overrides);
  } catch (error) {
    throw new SettingError(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
};

export const SAMPLER_SETTINGS = {
  schedulerUrl: setting(
    '--scheduler-url <url>',
    'SCHEDULER_URL',
    'base URL of the scheduler (domain candidates, rules)',
    parseAs.absoluteUrl,
    'http://127.0.0.1:7101',
  ),
  schedulerToken: setting(
    '--scheduler-token <token>',
    'SCHEDULER_TOKEN',
    "the scheduler's bearer token; without it no candidate is pulled and no rule is sent",
    parseAs.text,
  ),
  downloaderUrl: setting(
    '--downloader-url <url>',
    'DOWNLOADER_URL',
    'base URL of the downloader (every sampling request goes through its POST /v1/render)',
    parseAs.absoluteUrl,
    'http://127.0.0.1:7102',
  ),
  downloaderToken: setting(
    '--downloader-token <token>',
    'DOWNLOADER_TOKEN',
    "the downloader's bearer token; without it nothing is sampled",
    parseAs.text,
  ),
  samplingPolicy: setting(
    '--sampling-policy-file <path>',
    'SAMPLER_SAMPLING_POLICY_FILE',
    'JSON overrides of the sampling policy: verdict thresholds, language table (default intervals), budgets; default: the calibrated policy',
    samplingPolicyFile,
  ),
  samplingConcurrency: setting(
    '--sampling-concurrency <count>',
    'SAMPLER_SAMPLING_CONCURRENCY',
    'domains sampled at once',
    parseAs.wholeNumber(1, 64),
    2,
  ),
  queueTickIntervalMs: setting(
    '--queue-tick-interval-ms <ms>',
    'SAMPLER_QUEUE_TICK_INTERVAL_MS',
    'how often the sampling queue is looked at for due domains',
    parseAs.wholeNumber(10, 600_000),
    1000,
  ),
  candidatePollIntervalMs: setting(
    '--candidate-poll-interval-ms <ms>',
    'SAMPLER_CANDIDATE_POLL_INTERVAL_MS',
    'how often GET /v1/domain-candidates is called',
    parseAs.wholeNumber(10, 3_600_000),
    10_000,
  ),
  candidatePageSize: setting(
    '--candidate-page-size <count>',
    'SAMPLER_CANDIDATE_PAGE_SIZE',
    'candidates asked for per call (oldest first)',
    parseAs.wholeNumber(1, 1000),
    100,
  ),
  reverifyPeriodDays: setting(
    '--reverify-period-days <days>',
    'SAMPLER_REVERIFY_PERIOD_DAYS',
    'decided domains (csr, partial, ssr) are sampled again after this long',
    parseAs.wholeNumber(1, 3650),
    30,
  ),
  undecidedBackoffDays: setting(
    '--undecided-backoff-days <list>',
    'SAMPLER_UNDECIDED_BACKOFF_DAYS',
    'waits before re-sampling an undecided domain, per unknown in a row (the last repeats)',
    backoffDays,
    [30, 90, 180],
  ),
  samplingRetrySeconds: setting(
    '--sampling-retry-seconds <seconds>',
    'SAMPLER_SAMPLING_RETRY_SECONDS',
    'wait after a sampling that failed without a verdict; doubles per failure',
    parseAs.wholeNumber(1, DAY_SECONDS),
    300,
  ),
  maxSamplingRetrySeconds: setting(
    '--max-sampling-retry-seconds <seconds>',
    'SAMPLER_MAX_SAMPLING_RETRY_SECONDS',
    'cap of that wait',
    parseAs.wholeNumber(1, 30 * DAY_SECONDS),
    6 * 3600,
  ),
  hintConfidenceThreshold: setting(
    '--hint-confidence-threshold <ratio>',
    'SAMPLER_HINT_CONFIDENCE_THRESHOLD',
    'verdict hints with a lower confidence_score are rejected',
    parseAs.number(0, 1),
    0.5,
  ),
  claimSweepIntervalMs: setting(
    '--claim-sweep-interval-ms <ms>',
    'SAMPLER_CLAIM_SWEEP_INTERVAL_MS',
    'how often expired claims are tidied (expiry itself is judged at every read)',
    parseAs.wholeNumber(10, 3_600_000),
    5000,
  ),
  endedClaimRetentionDays: setting(
    '--ended-claim-retention-days <days>',
    'SAMPLER_ENDED_CLAIM_RETENTION_DAYS',
    'how long ended claims stay on the operator page',
    parseAs.wholeNumber(1, 365),
    7,
  ),
  rulePriorityRank: setting(
    '--rule-priority-rank <rank>',
    'SAMPLER_RULE_PRIORITY_RANK',
    'priority_rank of every rule the sampler writes (smaller is served first)',
    parseAs.wholeNumber(0, 1_000_000),
    100,
  ),
  apiHintCheckIntervalMs: setting(
    '--api-hint-check-interval-ms <ms>',
    'SAMPLER_API_HINT_CHECK_INTERVAL_MS',
    'how often domains with API endpoint hints due for a check are looked for',
    parseAs.wholeNumber(10, 3_600_000),
    10_000,
  ),
  apiHintRetryHours: setting(
    '--api-hint-retry-hours <hours>',
    'SAMPLER_API_HINT_RETRY_HOURS',
    "a domain's API endpoint hints that failed verification are checked again no sooner than this",
    parseAs.wholeNumber(1, 87_600),
    168,
  ),
} as const;

export type SamplerSettingValues = SettingValues<typeof SAMPLER_SETTINGS>;

export function resamplingPolicyOf(values: SamplerSettingValues): ResamplingPolicy {
  return {
    undecidedBackoffDays: values.undecidedBackoffDays,
    reverifyPeriodDays: values.reverifyPeriodDays,
    samplingRetrySeconds: values.samplingRetrySeconds,
    maxSamplingRetrySeconds: Math.max(values.maxSamplingRetrySeconds, values.samplingRetrySeconds),
  };
}

export function samplingLoopSettingsOf(values: SamplerSettingValues): SamplingLoopSettings {
  return {
    concurrency: values.samplingConcurrency,
    tickIntervalMs: values.queueTickIntervalMs,
    candidatePollIntervalMs: values.candidatePollIntervalMs,
    candidatePageSize: values.candidatePageSize,
  };
}

export function apiHintVerifierSettingsOf(values: SamplerSettingValues): ApiHintVerifierSettings {
  const policy = values.samplingPolicy ?? DEFAULT_SAMPLING_POLICY;
  return {
    checkIntervalMs: values.apiHintCheckIntervalMs,
    retryAfterFailureMs: values.apiHintRetryHours * 3_600_000,
    recheckAfterVerifiedMs: values.reverifyPeriodDays * DAY_SECONDS * 1000,
    deferMs: values.samplingRetrySeconds * 1000,
    samplePageCount: 3,
    maxHintCount: 100,
    plainTimeoutMs: policy.plainTimeoutMs,
    renderTimeoutMs: policy.renderTimeoutMs,
    maxRateLimitWaitMs: policy.maxRateLimitWaitMs,
  };
}
