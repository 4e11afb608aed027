import { parseAs, setting, type SettingValues } from '../common/config/settings';
import { CRAWLER_PRODUCT_TOKEN } from '../common/config/crawler-identity';
import type { FrontierSettings } from './frontier/frontier-settings';

/*
 * The scheduler's own flags and environment variables, declared once each (flag, variable,
 * default, allowed range) and read by the shared settings module: a flag wins over the variable,
 * the variable over the default; a value out of range stops the start naming the setting.
 */

const DAY_SECONDS = 86_400;

export const SCHEDULER_SETTINGS = {
  downloaderUrl: setting(
    '--downloader-url <url>',
    'DOWNLOADER_URL',
    'base URL of the downloader, for probes',
    parseAs.absoluteUrl,
    'http://127.0.0.1:7102',
  ),
  downloaderToken: setting(
    '--downloader-token <token>',
    'DOWNLOADER_TOKEN',
    "the downloader's bearer token, for probes",
    parseAs.text,
  ),
  domainInFlightCap: setting(
    '--domain-in-flight-cap <count>',
    'SCHEDULER_DOMAIN_IN_FLIGHT_CAP',
    'leased URLs per domain at once',
    parseAs.wholeNumber(1, 1000),
    2,
  ),
  taskTimeoutMs: setting(
    '--task-timeout-ms <ms>',
    'SCHEDULER_TASK_TIMEOUT_MS',
    'timeout_ms of every lease task',
    parseAs.wholeNumber(1000, 120_000),
    30_000,
  ),
  apiLinkRenderIntervalSeconds: setting(
    '--api-link-render-interval-seconds <seconds>',
    'SCHEDULER_API_LINK_RENDER_INTERVAL_SECONDS',
    "age of an api domain URL's last render before it is leased as render again (0: always render)",
    parseAs.wholeNumber(0, 365 * DAY_SECONDS),
    7 * DAY_SECONDS,
  ),
  maxAttemptCount: setting(
    '--max-attempt-count <count>',
    'SCHEDULER_MAX_ATTEMPT_COUNT',
    'failed fetches in a row before a URL is parked as failed',
    parseAs.wholeNumber(1, 100),
    3,
  ),
  retryBackoffSeconds: setting(
    '--retry-backoff-seconds <seconds>',
    'SCHEDULER_RETRY_BACKOFF_SECONDS',
    'wait before retrying a failed fetch; doubles per failure',
    parseAs.wholeNumber(1, DAY_SECONDS),
    300,
  ),
  maxRetryBackoffSeconds: setting(
    '--max-retry-backoff-seconds <seconds>',
    'SCHEDULER_MAX_RETRY_BACKOFF_SECONDS',
    'cap of the retry wait',
    parseAs.wholeNumber(1, 30 * DAY_SECONDS),
    21_600,
  ),
  maxLeaseExpiryCount: setting(
    '--max-lease-expiry-count <count>',
    'SCHEDULER_MAX_LEASE_EXPIRY_COUNT',
    'leases expiring on a URL in a row before it is parked as failed',
    parseAs.wholeNumber(1, 100),
    3,
  ),
  revisitIntervalSeconds: setting(
    '--revisit-interval-seconds <seconds>',
    'SCHEDULER_REVISIT_INTERVAL_SECONDS',
    're-visit interval of done URLs when the rule names none',
    parseAs.wholeNumber(60, 365 * DAY_SECONDS),
    DAY_SECONDS,
  ),
  maxRevisitIntervalSeconds: setting(
    '--max-revisit-interval-seconds <seconds>',
    'SCHEDULER_MAX_REVISIT_INTERVAL_SECONDS',
    'cap of the re-visit interval that doubles on not_modified',
    parseAs.wholeNumber(60, 365 * DAY_SECONDS),
    30 * DAY_SECONDS,
  ),
  leaseResultTtlSeconds: setting(
    '--lease-result-ttl-seconds <seconds>',
    'SCHEDULER_LEASE_RESULT_TTL_SECONDS',
    'how long report answers are kept for repeats',
    parseAs.wholeNumber(3600, 30 * DAY_SECONDS),
    DAY_SECONDS,
  ),
  activityRecordTtlSeconds: setting(
    '--activity-record-ttl-seconds <seconds>',
    'SCHEDULER_ACTIVITY_RECORD_TTL_SECONDS',
    'how long report and lease-expiry records are kept',
    parseAs.wholeNumber(DAY_SECONDS, 365 * DAY_SECONDS),
    7 * DAY_SECONDS,
  ),
  maxWaitingUrlCount: setting(
    '--max-waiting-url-count <count>',
    'SCHEDULER_MAX_WAITING_URL_COUNT',
    'links kept per domain that has no rule yet',
    parseAs.wholeNumber(10, 10_000_000),
    10_000,
  ),
  robotsUserAgent: setting(
    '--robots-user-agent <token>',
    'SCHEDULER_ROBOTS_USER_AGENT',
    'user-agent token matched in robots.txt (the downloader User-Agent product token)',
    parseAs.text,
    CRAWLER_PRODUCT_TOKEN,
  ),
  healthWindowResultCount: setting(
    '--health-window-result-count <count>',
    'SCHEDULER_HEALTH_WINDOW_RESULT_COUNT',
    "results in a domain's health window",
    parseAs.wholeNumber(2, 10_000),
    20,
  ),
  healthMinResultCount: setting(
    '--health-min-result-count <count>',
    'SCHEDULER_HEALTH_MIN_RESULT_COUNT',
    'results needed before the window can pause a domain',
    parseAs.wholeNumber(1, 10_000),
    5,
  ),
  healthMinXhrCount: setting(
    '--health-min-xhr-count <count>',
    'SCHEDULER_HEALTH_MIN_XHR_COUNT',
    'XHRs needed before the XHR ratios count',
    parseAs.wholeNumber(1, 1_000_000),
    10,
  ),
  healthXhrErrorRatio: setting(
    '--health-xhr-error-ratio <ratio>',
    'SCHEDULER_HEALTH_XHR_ERROR_RATIO',
    'XHRs answered >= 500 that pause a domain',
    parseAs.number(0, 1),
    0.5,
  ),
  healthXhrThrottledRatio: setting(
    '--health-xhr-throttled-ratio <ratio>',
    'SCHEDULER_HEALTH_XHR_THROTTLED_RATIO',
    'XHRs answered 429 that pause a domain',
    parseAs.number(0, 1),
    0.3,
  ),
  healthXhrDeniedRatio: setting(
    '--health-xhr-denied-ratio <ratio>',
    'SCHEDULER_HEALTH_XHR_DENIED_RATIO',
    'XHRs answered 401/403 that pause a domain',
    parseAs.number(0, 1),
    0.5,
  ),
  healthOriginFailureRatio: setting(
    '--health-origin-failure-ratio <ratio>',
    'SCHEDULER_HEALTH_ORIGIN_FAILURE_RATIO',
    'results failed with 5xx, 429 or a challenge that pause a domain',
    parseAs.number(0, 1),
    0.5,
  ),
  healthPauseSeconds: setting(
    '--health-pause-seconds <seconds>',
    'SCHEDULER_HEALTH_PAUSE_SECONDS',
    'wait before the first probe; doubles per unhealthy probe',
    parseAs.wholeNumber(1, DAY_SECONDS),
    60,
  ),
  healthMaxPauseSeconds: setting(
    '--health-max-pause-seconds <seconds>',
    'SCHEDULER_HEALTH_MAX_PAUSE_SECONDS',
    'cap of the wait between probes',
    parseAs.wholeNumber(1, 7 * DAY_SECONDS),
    3600,
  ),
  probeRetrySeconds: setting(
    '--probe-retry-seconds <seconds>',
    'SCHEDULER_PROBE_RETRY_SECONDS',
    'wait after a probe that did not reach the origin',
    parseAs.wholeNumber(1, DAY_SECONDS),
    15,
  ),
  probeTimeoutMs: setting(
    '--probe-timeout-ms <ms>',
    'SCHEDULER_PROBE_TIMEOUT_MS',
    'timeout_ms sent with probes',
    parseAs.wholeNumber(1000, 120_000),
    10_000,
  ),
  probeConcurrency: setting(
    '--probe-concurrency <count>',
    'SCHEDULER_PROBE_CONCURRENCY',
    'probes in flight at once',
    parseAs.wholeNumber(1, 100),
    4,
  ),
  runtimeWriteIntervalMs: setting(
    '--runtime-write-interval-ms <ms>',
    'SCHEDULER_RUNTIME_WRITE_INTERVAL_MS',
    'how often changed domain_runtime rows are written behind memory',
    parseAs.wholeNumber(100, 600_000),
    10_000,
  ),
  maintenanceIntervalMs: setting(
    '--maintenance-interval-ms <ms>',
    'SCHEDULER_MAINTENANCE_INTERVAL_MS',
    'tick of reclaiming, re-visits, write-behind and probes',
    parseAs.wholeNumber(10, 60_000),
    1000,
  ),
  linkPreparationThreadCount: setting(
    '--link-preparation-threads <count>',
    'SCHEDULER_LINK_PREPARATION_THREADS',
    'threads that normalize and hash reported links (0: the main thread does)',
    parseAs.wholeNumber(0, 16),
    1,
  ),
} as const;

export type SchedulerSettingValues = SettingValues<typeof SCHEDULER_SETTINGS>;

export function frontierSettingsOf(values: SchedulerSettingValues): FrontierSettings {
  return {
    domainInFlightCap: values.domainInFlightCap,
    taskTimeoutMs: values.taskTimeoutMs,
    apiLinkRenderIntervalSeconds: values.apiLinkRenderIntervalSeconds,
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
    robotsUserAgent: values.robotsUserAgent,
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
    linkPreparationThreadCount: values.linkPreparationThreadCount,
  };
}
