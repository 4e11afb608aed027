import { hostname } from 'node:os';
import {
  parseAs,
  setting,
  SettingError,
  settingLabel,
  type SettingParser,
  type SettingValues,
} from '../common/config/settings';
import { DEFAULT_CHROMIUM_PATH } from '../common/chromium/chromium-executable';
import { DEFAULT_CRAWLER_USER_AGENT } from './egress/plain-http-fetch';
import { DEFAULT_RENDERER_PROCESS_LIMIT } from './rendering/chromium-arguments';
import { DEFAULT_RECYCLE_AFTER_RENDER_COUNT } from './rendering/page-pool';
import { DEFAULT_RENDERER_HEAP_RECLAIM } from './rendering/renderer-heap-reclaim';

/*
 * The downloader's own flags and environment variables (README, "Downloader configuration"),
 * declared once each and read by the shared settings module: a flag wins over the variable, the
 * variable over the default; a wrong value stops the start naming the setting.
 */

const SECOND_MS = 1000;
const DAY_SECONDS = 86_400;

/** Most pages a pool may have, self-sized or fixed. */
export const PAGE_POOL_HARD_MAX_SIZE = 64;

/** `auto` (the pool sizes itself) or a fixed number of pages. */
const pagePoolSizeParser: SettingParser<number | 'auto'> = (text, name) =>
  text.trim() === 'auto' ? 'auto' : parseAs.wholeNumber(1, PAGE_POOL_HARD_MAX_SIZE)(text, name);

/** A worker id that stays the same across restarts of this machine's downloader. */
function defaultWorkerId(): string {
  const cleaned = hostname()
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 100);
  return `downloader-${cleaned || 'host'}`;
}

export const DOWNLOADER_SETTINGS = {
  crawlerName: setting(
    '--crawler-name <product>',
    'DOWNLOADER_CRAWLER_NAME',
    'product token of the User-Agent, e.g. RenderCrawler/0.1',
    parseAs.text,
    DEFAULT_CRAWLER_USER_AGENT.split(' ')[0],
  ),
  contactUrl: setting(
    '--contact-url <url>',
    'DOWNLOADER_CONTACT_URL',
    'where site owners reach the operator; goes into every User-Agent',
    parseAs.absoluteUrl,
    'https://example.invalid/contact',
  ),
  robotsUserAgent: setting(
    '--robots-user-agent <token>',
    'DOWNLOADER_ROBOTS_USER_AGENT',
    'user-agent token matched against robots.txt groups (default: the crawler name without version)',
    parseAs.text,
  ),
  allowDestinations: setting(
    '--allow-destinations <list>',
    'DOWNLOADER_ALLOW_DESTINATIONS',
    'private/loopback hosts, addresses or CIDR ranges the operator allows (comma separated)',
    parseAs.commaList,
    [] as string[],
  ),
  chromiumPath: setting(
    '--chromium-path <path>',
    'CHROMIUM_PATH',
    'the browser binary (default: the system chromium-headless-shell; see chromium-executable.ts)',
    parseAs.text,
    DEFAULT_CHROMIUM_PATH,
  ),
  pagePoolSize: setting(
    '--page-pool-size <count|auto>',
    'DOWNLOADER_PAGE_POOL_SIZE',
    'pages rendering at once: auto (sized from CPU, memory and event-loop lag, up to max_concurrent_count) or a fixed count',
    pagePoolSizeParser,
    'auto' as number | 'auto',
  ),
  pagePoolMinSize: setting(
    '--page-pool-min-size <count>',
    'DOWNLOADER_PAGE_POOL_MIN_SIZE',
    'fewest pages a self-sizing pool keeps',
    parseAs.wholeNumber(1, PAGE_POOL_HARD_MAX_SIZE),
    1,
  ),
  recycleAfterRenderCount: setting(
    '--recycle-after-render-count <count>',
    'DOWNLOADER_RECYCLE_AFTER_RENDER_COUNT',
    'renders per browser before it is replaced',
    parseAs.wholeNumber(1, 100_000),
    DEFAULT_RECYCLE_AFTER_RENDER_COUNT,
  ),
  rendererProcessLimit: setting(
    '--renderer-process-limit <count>',
    'DOWNLOADER_RENDERER_PROCESS_LIMIT',
    'renderer processes per browser at most; pages share them (default: two per core)',
    parseAs.wholeNumber(1, 1000),
    DEFAULT_RENDERER_PROCESS_LIMIT,
  ),
  rendererHeapCollectAboveMb: setting(
    '--renderer-heap-collect-above-mb <MiB>',
    'DOWNLOADER_RENDERER_HEAP_COLLECT_ABOVE_MB',
    "a returned page's renderer is collected when its V8 + DOM heaps pass this (0: never)",
    parseAs.wholeNumber(0, 65_536),
    DEFAULT_RENDERER_HEAP_RECLAIM.thresholdBytes / (1024 * 1024),
  ),
  maxContentBytes: setting(
    '--max-content-bytes <bytes>',
    'DOWNLOADER_MAX_CONTENT_BYTES',
    'largest rendered HTML / plain body; larger is content_too_large',
    parseAs.wholeNumber(1024, 100 * 1024 * 1024),
    10 * 1024 * 1024,
  ),
  settleMs: setting(
    '--settle-ms <ms>',
    'DOWNLOADER_SETTLE_MS',
    'a page is complete once no request is unfinished this long and no short timer is due',
    parseAs.wholeNumber(0, 10_000),
    100,
  ),
  quietWindowMs: setting(
    '--quiet-window-ms <ms>',
    'DOWNLOADER_QUIET_WINDOW_MS',
    'network-quiet window after wait_selector: the upper bound of the settle (late XHRs)',
    parseAs.wholeNumber(0, 10_000),
    400,
  ),
  maxConcurrentCount: setting(
    '--max-concurrent-count <count>',
    'DOWNLOADER_MAX_CONCURRENT_COUNT',
    'initial max_concurrent_count when none is stored (then the operator endpoint owns it)',
    parseAs.wholeNumber(1, 1024),
    8,
  ),
  defaultMinIntervalMs: setting(
    '--default-min-interval-ms <ms>',
    'DOWNLOADER_DEFAULT_MIN_INTERVAL_MS',
    'interval for callers that send no min_interval_ms (interval_source global_default)',
    parseAs.wholeNumber(0, DAY_SECONDS * SECOND_MS),
    1000,
  ),
  domainInFlightCap: setting(
    '--domain-in-flight-cap <count>',
    'DOWNLOADER_DOMAIN_IN_FLIGHT_CAP',
    'requests to one domain in flight at once',
    parseAs.wholeNumber(1, 64),
    2,
  ),
  arrivalBoundMs: setting(
    '--arrival-bound-ms <ms>',
    'DOWNLOADER_ARRIVAL_BOUND_MS',
    'a request not answered yet is assumed to reach the origin within this long of its dispatch (spacing only lengthens)',
    parseAs.wholeNumber(0, 60_000),
    1000,
  ),
  backoffBaseMs: setting(
    '--backoff-base-ms <ms>',
    'DOWNLOADER_BACKOFF_BASE_MS',
    'politeness backoff after the k-th consecutive error: base · 2^k',
    parseAs.wholeNumber(1, 600_000),
    2000,
  ),
  backoffCapMs: setting(
    '--backoff-cap-ms <ms>',
    'DOWNLOADER_BACKOFF_CAP_MS',
    'cap of the politeness backoff',
    parseAs.wholeNumber(1, 3_600_000),
    64_000,
  ),
  pauseAfterErrorCount: setting(
    '--pause-after-error-count <count>',
    'DOWNLOADER_PAUSE_AFTER_ERROR_COUNT',
    'consecutive 5xx / timeouts / 429s that pause a domain',
    parseAs.wholeNumber(1, 100),
    5,
  ),
  pauseSeconds: setting(
    '--pause-seconds <seconds>',
    'DOWNLOADER_PAUSE_SECONDS',
    'how long a paused domain is held back (never shorter than the backoff)',
    parseAs.wholeNumber(1, 7 * DAY_SECONDS),
    600,
  ),
  robotsCacheTtlSeconds: setting(
    '--robots-cache-ttl-seconds <seconds>',
    'DOWNLOADER_ROBOTS_CACHE_TTL_SECONDS',
    'how long a robots.txt answer (2xx, 4xx) is cached',
    parseAs.wholeNumber(60, 30 * DAY_SECONDS),
    DAY_SECONDS,
  ),
  robotsFailureTtlSeconds: setting(
    '--robots-failure-ttl-seconds <seconds>',
    'DOWNLOADER_ROBOTS_FAILURE_TTL_SECONDS',
    'how long a 5xx / unreachable robots.txt (disallow all) is cached before a retry',
    parseAs.wholeNumber(1, DAY_SECONDS),
    600,
  ),
  objectRetentionDays: setting(
    '--object-retention-days <days>',
    'DOWNLOADER_OBJECT_RETENTION_DAYS',
    'how long stored web page objects are kept (0 = forever)',
    parseAs.wholeNumber(0, 3650),
    30,
  ),
  auditRetentionDays: setting(
    '--audit-retention-days <days>',
    'DOWNLOADER_AUDIT_RETENTION_DAYS',
    'how long fetch audit records are kept',
    parseAs.wholeNumber(1, 3650),
    90,
  ),
  isLeaseLoopEnabled: setting(
    '--lease-loop <on|off>',
    'DOWNLOADER_LEASE_LOOP',
    'entry A; off for a render-only node (on needs a scheduler token)',
    parseAs.onOff,
    true,
  ),
  schedulerUrl: setting(
    '--scheduler-url <url>',
    'SCHEDULER_URL',
    'base URL of the scheduler',
    parseAs.absoluteUrl,
    'http://127.0.0.1:7101',
  ),
  schedulerToken: setting(
    '--scheduler-token <token>',
    'SCHEDULER_TOKEN',
    "the scheduler's bearer token (never logged)",
    parseAs.text,
  ),
  samplerUrl: setting(
    '--sampler-url <url>',
    'SAMPLER_URL',
    'base URL of the sampler (v2: API endpoint hints go there)',
    parseAs.absoluteUrl,
    'http://127.0.0.1:7103',
  ),
  samplerToken: setting(
    '--sampler-token <token>',
    'SAMPLER_TOKEN',
    "the sampler's bearer token (never logged); without it no API endpoint hints are sent",
    parseAs.text,
  ),
  workerId: setting(
    '--worker-id <id>',
    'DOWNLOADER_WORKER_ID',
    'stable worker_id sent with every lease and report',
    parseAs.matching(
      /^[A-Za-z0-9._-]{1,128}$/,
      'of [A-Za-z0-9._-], 1–128 characters (CONTRACT.md §三)',
    ),
    defaultWorkerId(),
  ),
  leaseTaskCount: setting(
    '--lease-task-count <count>',
    'DOWNLOADER_LEASE_TASK_COUNT',
    'most tasks per lease (fewer when there is less room)',
    parseAs.wholeNumber(1, 500),
    50,
  ),
  leaseTtlSeconds: setting(
    '--lease-ttl-seconds <seconds>',
    'DOWNLOADER_LEASE_TTL_SECONDS',
    'lease_ttl_seconds asked for',
    parseAs.wholeNumber(10, 3600),
    120,
  ),
  leaseWaitMs: setting(
    '--lease-wait-ms <ms>',
    'DOWNLOADER_LEASE_WAIT_MS',
    'how long the scheduler may hold a lease call while nothing is due (long polling; 0 = answer at once)',
    parseAs.wholeNumber(0, 25_000),
    20_000,
  ),
  leasePollIntervalMs: setting(
    '--lease-poll-interval-ms <ms>',
    'DOWNLOADER_LEASE_POLL_INTERVAL_MS',
    'wait after a failed lease call; the longest backoff after empty answers that came back at once',
    parseAs.wholeNumber(10, 600_000),
    2000,
  ),
  runtimeFlushIntervalMs: setting(
    '--runtime-flush-interval-ms <ms>',
    'DOWNLOADER_RUNTIME_FLUSH_INTERVAL_MS',
    'write-behind period of downloader:domain_runtime',
    parseAs.wholeNumber(50, 60_000),
    1000,
  ),
} as const;

/** The resolved settings; optional ones stay undefined when not given. */
export type DownloaderSettings = Omit<
  SettingValues<typeof DOWNLOADER_SETTINGS>,
  'robotsUserAgent'
> & {
  readonly robotsUserAgent: string;
  /** `crawlerName (+contactUrl)`: honest, with a way to complain. */
  readonly userAgent: string;
};

/** Checks what one setting alone cannot, and derives the User-Agent and the robots.txt token. */
export function downloaderSettingsOf(
  values: SettingValues<typeof DOWNLOADER_SETTINGS>,
): DownloaderSettings {
  if (values.backoffCapMs < values.backoffBaseMs) {
    throw new SettingError(
      `${settingLabel(DOWNLOADER_SETTINGS.backoffCapMs)} must not be below ${settingLabel(
        DOWNLOADER_SETTINGS.backoffBaseMs,
      )}`,
    );
  }
  return {
    ...values,
    robotsUserAgent: values.robotsUserAgent ?? values.crawlerName.split('/')[0],
    userAgent: `${values.crawlerName} (+${values.contactUrl})`,
  };
}
