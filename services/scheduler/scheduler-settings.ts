import { Option, type Command } from 'commander';
import type { FrontierSettings } from './frontier/frontier-settings';
import { CRAWLER_PRODUCT_TOKEN } from '../common/config/crawler-identity';

/*
 * The scheduler's own flags and environment variables. Each setting is declared once, here: the
 * flag (listed by --help), the variable, the default and the allowed range. A flag wins over the
 * variable, the variable over the default; a value out of range stops the start with a message
 * that names the setting.
 */

interface SettingDefinition {
  flag: string;
  variable: string;
  description: string;
  kind: 'integer' | 'ratio' | 'text';
  defaultValue?: number | string;
  min?: number;
  max?: number;
}

const integer = (
  flag: string,
  variable: string,
  description: string,
  defaultValue: number,
  min: number,
  max: number,
): SettingDefinition & { kind: 'integer' } => ({
  flag,
  variable,
  description,
  kind: 'integer',
  defaultValue,
  min,
  max,
});

const ratio = (
  flag: string,
  variable: string,
  description: string,
  defaultValue: number,
): SettingDefinition & { kind: 'ratio' } => ({
  flag,
  variable,
  description,
  kind: 'ratio',
  defaultValue,
  min: 0,
  max: 1,
});

const text = (
  flag: string,
  variable: string,
  description: string,
  defaultValue?: string,
): SettingDefinition & { kind: 'text' } => ({
  flag,
  variable,
  description,
  kind: 'text',
  defaultValue,
});

const DAY_SECONDS = 86_400;

export const SCHEDULER_SETTINGS = {
  downloaderUrl: text(
    '--downloader-url <url>',
    'DOWNLOADER_URL',
    'base URL of the downloader, for probes',
    'http://127.0.0.1:7102',
  ),
  downloaderToken: text(
    '--downloader-token <token>',
    'DOWNLOADER_TOKEN',
    "the downloader's bearer token, for probes",
  ),
  domainInFlightCap: integer(
    '--domain-in-flight-cap <count>',
    'SCHEDULER_DOMAIN_IN_FLIGHT_CAP',
    'leased URLs per domain at once',
    2,
    1,
    1000,
  ),
  taskTimeoutMs: integer(
    '--task-timeout-ms <ms>',
    'SCHEDULER_TASK_TIMEOUT_MS',
    'timeout_ms of every lease task',
    30_000,
    1000,
    120_000,
  ),
  maxAttemptCount: integer(
    '--max-attempt-count <count>',
    'SCHEDULER_MAX_ATTEMPT_COUNT',
    'failed fetches in a row before a URL is parked as failed',
    3,
    1,
    100,
  ),
  retryBackoffSeconds: integer(
    '--retry-backoff-seconds <seconds>',
    'SCHEDULER_RETRY_BACKOFF_SECONDS',
    'wait before retrying a failed fetch; doubles per failure',
    300,
    1,
    DAY_SECONDS,
  ),
  maxRetryBackoffSeconds: integer(
    '--max-retry-backoff-seconds <seconds>',
    'SCHEDULER_MAX_RETRY_BACKOFF_SECONDS',
    'cap of the retry wait',
    21_600,
    1,
    30 * DAY_SECONDS,
  ),
  maxLeaseExpiryCount: integer(
    '--max-lease-expiry-count <count>',
    'SCHEDULER_MAX_LEASE_EXPIRY_COUNT',
    'leases expiring on a URL in a row before it is parked as failed',
    3,
    1,
    100,
  ),
  revisitIntervalSeconds: integer(
    '--revisit-interval-seconds <seconds>',
    'SCHEDULER_REVISIT_INTERVAL_SECONDS',
    're-visit interval of done URLs when the rule names none',
    DAY_SECONDS,
    60,
    365 * DAY_SECONDS,
  ),
  maxRevisitIntervalSeconds: integer(
    '--max-revisit-interval-seconds <seconds>',
    'SCHEDULER_MAX_REVISIT_INTERVAL_SECONDS',
    'cap of the re-visit interval that doubles on not_modified',
    30 * DAY_SECONDS,
    60,
    365 * DAY_SECONDS,
  ),
  leaseResultTtlSeconds: integer(
    '--lease-result-ttl-seconds <seconds>',
    'SCHEDULER_LEASE_RESULT_TTL_SECONDS',
    'how long report answers are kept for repeats',
    DAY_SECONDS,
    3600,
    30 * DAY_SECONDS,
  ),
  activityRecordTtlSeconds: integer(
    '--activity-record-ttl-seconds <seconds>',
    'SCHEDULER_ACTIVITY_RECORD_TTL_SECONDS',
    'how long report and lease-expiry records are kept',
    7 * DAY_SECONDS,
    DAY_SECONDS,
    365 * DAY_SECONDS,
  ),
  maxWaitingUrlCount: integer(
    '--max-waiting-url-count <count>',
    'SCHEDULER_MAX_WAITING_URL_COUNT',
    'links kept per domain that has no rule yet',
    10_000,
    10,
    10_000_000,
  ),
  robotsUserAgent: text(
    '--robots-user-agent <token>',
    'SCHEDULER_ROBOTS_USER_AGENT',
    'user-agent token matched in robots.txt (the downloader User-Agent product token)',
    CRAWLER_PRODUCT_TOKEN,
  ),
  healthWindowResultCount: integer(
    '--health-window-result-count <count>',
    'SCHEDULER_HEALTH_WINDOW_RESULT_COUNT',
    "results in a domain's health window",
    20,
    2,
    10_000,
  ),
  healthMinResultCount: integer(
    '--health-min-result-count <count>',
    'SCHEDULER_HEALTH_MIN_RESULT_COUNT',
    'results needed before the window can pause a domain',
    5,
    1,
    10_000,
  ),
  healthMinXhrCount: integer(
    '--health-min-xhr-count <count>',
    'SCHEDULER_HEALTH_MIN_XHR_COUNT',
    'XHRs needed before the XHR ratios count',
    10,
    1,
    1_000_000,
  ),
  healthXhrErrorRatio: ratio(
    '--health-xhr-error-ratio <ratio>',
    'SCHEDULER_HEALTH_XHR_ERROR_RATIO',
    'XHRs answered >= 500 that pause a domain',
    0.5,
  ),
  healthXhrThrottledRatio: ratio(
    '--health-xhr-throttled-ratio <ratio>',
    'SCHEDULER_HEALTH_XHR_THROTTLED_RATIO',
    'XHRs answered 429 that pause a domain',
    0.3,
  ),
  healthXhrDeniedRatio: ratio(
    '--health-xhr-denied-ratio <ratio>',
    'SCHEDULER_HEALTH_XHR_DENIED_RATIO',
    'XHRs answered 401/403 that pause a domain',
    0.5,
  ),
  healthOriginFailureRatio: ratio(
    '--health-origin-failure-ratio <ratio>',
    'SCHEDULER_HEALTH_ORIGIN_FAILURE_RATIO',
    'results failed with 5xx, 429 or a challenge that pause a domain',
    0.5,
  ),
  healthPauseSeconds: integer(
    '--health-pause-seconds <seconds>',
    'SCHEDULER_HEALTH_PAUSE_SECONDS',
    'wait before the first probe; doubles per unhealthy probe',
    60,
    1,
    DAY_SECONDS,
  ),
  healthMaxPauseSeconds: integer(
    '--health-max-pause-seconds <seconds>',
    'SCHEDULER_HEALTH_MAX_PAUSE_SECONDS',
    'cap of the wait between probes',
    3600,
    1,
    7 * DAY_SECONDS,
  ),
  probeRetrySeconds: integer(
    '--probe-retry-seconds <seconds>',
    'SCHEDULER_PROBE_RETRY_SECONDS',
    'wait after a probe that did not reach the origin',
    15,
    1,
    DAY_SECONDS,
  ),
  probeTimeoutMs: integer(
    '--probe-timeout-ms <ms>',
    'SCHEDULER_PROBE_TIMEOUT_MS',
    'timeout_ms sent with probes',
    10_000,
    1000,
    120_000,
  ),
  probeConcurrency: integer(
    '--probe-concurrency <count>',
    'SCHEDULER_PROBE_CONCURRENCY',
    'probes in flight at once',
    4,
    1,
    100,
  ),
  runtimeWriteIntervalMs: integer(
    '--runtime-write-interval-ms <ms>',
    'SCHEDULER_RUNTIME_WRITE_INTERVAL_MS',
    'how often changed domain_runtime rows are written behind memory',
    10_000,
    100,
    600_000,
  ),
  maintenanceIntervalMs: integer(
    '--maintenance-interval-ms <ms>',
    'SCHEDULER_MAINTENANCE_INTERVAL_MS',
    'tick of reclaiming, re-visits, write-behind and probes',
    1000,
    10,
    60_000,
  ),
} as const satisfies Record<string, SettingDefinition>;

type SettingName = keyof typeof SCHEDULER_SETTINGS;
type SettingValue<Name extends SettingName> =
  (typeof SCHEDULER_SETTINGS)[Name]['kind'] extends 'text' ? string | undefined : number;
export type SchedulerSettingValues = { [Name in SettingName]: SettingValue<Name> };

function optionOf(definition: SettingDefinition): Option {
  const shown = definition.defaultValue === undefined ? '' : `; default ${definition.defaultValue}`;
  return new Option(
    definition.flag,
    `${definition.description} (env ${definition.variable}${shown})`,
  );
}

/** Adds the scheduler's flags to the service command (so --help lists them). */
export function addSchedulerOptions(command: Command): void {
  for (const definition of Object.values(SCHEDULER_SETTINGS))
    command.addOption(optionOf(definition));
}

/** Reads every setting from the parsed flags, then the environment, then the default. */
export function readSchedulerSettings(
  options: Record<string, unknown>,
  environment: NodeJS.ProcessEnv,
): SchedulerSettingValues {
  const values: Record<string, number | string | undefined> = {};
  for (const [name, definition] of Object.entries(SCHEDULER_SETTINGS) as Array<
    [string, SettingDefinition]
  >) {
    const given = options[optionOf(definition).attributeName()] ?? environment[definition.variable];
    values[name] = parseSetting(
      definition,
      typeof given === 'string' && given.trim() !== '' ? given.trim() : undefined,
    );
  }
  return values as SchedulerSettingValues;
}

function parseSetting(
  definition: SettingDefinition,
  given: string | undefined,
): number | string | undefined {
  if (given === undefined) return definition.defaultValue;
  if (definition.kind === 'text') return given;
  const value = Number(given);
  const isWhole = definition.kind !== 'integer' || Number.isSafeInteger(value);
  if (
    !Number.isFinite(value) ||
    !isWhole ||
    value < (definition.min ?? -Infinity) ||
    value > (definition.max ?? Infinity)
  ) {
    throw new Error(
      `${definition.flag.split(' ')[0]} / ${definition.variable} must be ${
        definition.kind === 'integer' ? 'a whole number' : 'a number'
      } from ${definition.min} to ${definition.max}, got "${given}"`,
    );
  }
  return value;
}

export function frontierSettingsOf(values: SchedulerSettingValues): FrontierSettings {
  return {
    domainInFlightCap: values.domainInFlightCap,
    taskTimeoutMs: values.taskTimeoutMs,
    recrawl: {
      maxAttemptCount: values.maxAttemptCount,
      retryBackoffSeconds: values.retryBackoffSeconds,
      maxRetryBackoffSeconds: values.maxRetryBackoffSeconds,
      maxLeaseExpiryCount: values.maxLeaseExpiryCount,
      defaultRevisitIntervalSeconds: values.revisitIntervalSeconds,
      maxRevisitIntervalSeconds: values.maxRevisitIntervalSeconds,
    },
    leaseResultTtlSeconds: values.leaseResultTtlSeconds,
    activityRecordTtlSeconds: values.activityRecordTtlSeconds,
    maxWaitingUrlCountPerDomain: values.maxWaitingUrlCount,
    robotsUserAgent: values.robotsUserAgent ?? CRAWLER_PRODUCT_TOKEN,
    health: {
      windowResultCount: values.healthWindowResultCount,
      minResultCount: values.healthMinResultCount,
      minXhrCount: values.healthMinXhrCount,
      xhrErrorRatio: values.healthXhrErrorRatio,
      xhrThrottledRatio: values.healthXhrThrottledRatio,
      xhrDeniedRatio: values.healthXhrDeniedRatio,
      originFailureRatio: values.healthOriginFailureRatio,
    },
    probeSchedule: {
      pauseSeconds: values.healthPauseSeconds,
      maxPauseSeconds: values.healthMaxPauseSeconds,
      probeRetrySeconds: values.probeRetrySeconds,
    },
    probeTimeoutMs: values.probeTimeoutMs,
    probeConcurrency: values.probeConcurrency,
    runtimeWriteIntervalMs: values.runtimeWriteIntervalMs,
    maintenanceIntervalMs: values.maintenanceIntervalMs,
  };
}
