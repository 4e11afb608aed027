import { hostname } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_CRAWLER_USER_AGENT } from './egress/plain-http-fetch';

/*
 * The downloader's own flags and environment variables (README, "Downloader configuration"). Each
 * setting is declared once: flag, variable, default, and a parser that names the setting when a
 * value is wrong. A flag wins over the variable, the variable over the default.
 */

type Parser<T> = (text: string, name: string) => T;

interface Setting<T> {
  readonly flag: string;
  readonly variable: string;
  readonly description: string;
  readonly parse: Parser<T>;
  /** Used when neither the flag nor the variable is given; undefined = not set. */
  readonly fallback: T | undefined;
}

function setting<T>(
  flag: string,
  variable: string,
  description: string,
  parse: Parser<T>,
  fallback?: T,
): Setting<T> {
  return { flag, variable, description, parse, fallback };
}

const wholeNumber =
  (min: number, max: number): Parser<number> =>
  (text, name) => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    }
    return value;
  };

const plainText: Parser<string> = (text, name) => {
  if (text.trim() === '') throw new InvalidArgumentError(`${name} must not be empty`);
  return text.trim();
};

const onOff: Parser<boolean> = (text, name) => {
  if (/^(1|true|on|yes)$/i.test(text)) return true;
  if (/^(0|false|off|no)$/i.test(text)) return false;
  throw new InvalidArgumentError(`${name} must be on or off`);
};

const commaList: Parser<string[]> = (text) =>
  text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

const workerIdentifier: Parser<string> = (text, name) => {
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(text)) {
    throw new InvalidArgumentError(`${name} must match [A-Za-z0-9._-]{1,128} (CONTRACT.md §三)`);
  }
  return text;
};

const absoluteUrl: Parser<string> = (text, name) => {
  try {
    return new URL(text).href.replace(/\/$/, '');
  } catch {
    throw new InvalidArgumentError(`${name} must be an absolute URL`);
  }
};

const SECOND_MS = 1000;
const DAY_SECONDS = 86_400;

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
    plainText,
    DEFAULT_CRAWLER_USER_AGENT.split(' ')[0],
  ),
  contactUrl: setting(
    '--contact-url <url>',
    'DOWNLOADER_CONTACT_URL',
    'where site owners reach the operator; goes into every User-Agent',
    absoluteUrl,
    'https://example.invalid/contact',
  ),
  robotsUserAgent: setting(
    '--robots-user-agent <token>',
    'DOWNLOADER_ROBOTS_USER_AGENT',
    'user-agent token matched against robots.txt groups (default: the crawler name without version)',
    plainText,
  ),
  allowDestinations: setting(
    '--allow-destinations <list>',
    'DOWNLOADER_ALLOW_DESTINATIONS',
    'private/loopback hosts, addresses or CIDR ranges the operator allows (comma separated)',
    commaList,
    [] as string[],
  ),
  chromiumPath: setting(
    '--chromium-path <path>',
    'CHROMIUM_PATH',
    'the system Chromium',
    plainText,
    '/usr/bin/chromium',
  ),
  pagePoolSize: setting(
    '--page-pool-size <count>',
    'DOWNLOADER_PAGE_POOL_SIZE',
    'pages rendering at once',
    wholeNumber(1, 64),
    4,
  ),
  recycleAfterRenderCount: setting(
    '--recycle-after-render-count <count>',
    'DOWNLOADER_RECYCLE_AFTER_RENDER_COUNT',
    'renders per browser before it is replaced',
    wholeNumber(1, 100_000),
    200,
  ),
  maxContentBytes: setting(
    '--max-content-bytes <bytes>',
    'DOWNLOADER_MAX_CONTENT_BYTES',
    'largest rendered HTML / plain body; larger is content_too_large',
    wholeNumber(1024, 100 * 1024 * 1024),
    10 * 1024 * 1024,
  ),
  quietWindowMs: setting(
    '--quiet-window-ms <ms>',
    'DOWNLOADER_QUIET_WINDOW_MS',
    'network-quiet window after wait_selector (late XHRs)',
    wholeNumber(0, 10_000),
    400,
  ),
  maxConcurrentCount: setting(
    '--max-concurrent-count <count>',
    'DOWNLOADER_MAX_CONCURRENT_COUNT',
    'initial max_concurrent_count when none is stored (then the operator endpoint owns it)',
    wholeNumber(1, 1024),
    8,
  ),
  defaultMinIntervalMs: setting(
    '--default-min-interval-ms <ms>',
    'DOWNLOADER_DEFAULT_MIN_INTERVAL_MS',
    'interval for callers that send no min_interval_ms (interval_source global_default)',
    wholeNumber(0, DAY_SECONDS * SECOND_MS),
    1000,
  ),
  domainInFlightCap: setting(
    '--domain-in-flight-cap <count>',
    'DOWNLOADER_DOMAIN_IN_FLIGHT_CAP',
    'requests to one domain in flight at once',
    wholeNumber(1, 64),
    2,
  ),
  arrivalBoundMs: setting(
    '--arrival-bound-ms <ms>',
    'DOWNLOADER_ARRIVAL_BOUND_MS',
    'a request not answered yet is assumed to reach the origin within this long of its dispatch (spacing only lengthens)',
    wholeNumber(0, 60_000),
    1000,
  ),
  backoffBaseMs: setting(
    '--backoff-base-ms <ms>',
    'DOWNLOADER_BACKOFF_BASE_MS',
    'politeness backoff after the k-th consecutive error: base · 2^k',
    wholeNumber(1, 600_000),
    2000,
  ),
  backoffCapMs: setting(
    '--backoff-cap-ms <ms>',
    'DOWNLOADER_BACKOFF_CAP_MS',
    'cap of the politeness backoff',
    wholeNumber(1, 3_600_000),
    64_000,
  ),
  pauseAfterErrorCount: setting(
    '--pause-after-error-count <count>',
    'DOWNLOADER_PAUSE_AFTER_ERROR_COUNT',
    'consecutive 5xx / timeouts / 429s that pause a domain',
    wholeNumber(1, 100),
    5,
  ),
  pauseSeconds: setting(
    '--pause-seconds <seconds>',
    'DOWNLOADER_PAUSE_SECONDS',
    'how long a paused domain is held back (never shorter than the backoff)',
    wholeNumber(1, 7 * DAY_SECONDS),
    600,
  ),
  robotsCacheTtlSeconds: setting(
    '--robots-cache-ttl-seconds <seconds>',
    'DOWNLOADER_ROBOTS_CACHE_TTL_SECONDS',
    'how long a robots.txt answer (2xx, 4xx) is cached',
    wholeNumber(60, 30 * DAY_SECONDS),
    DAY_SECONDS,
  ),
  robotsFailureTtlSeconds: setting(
    '--robots-failure-ttl-seconds <seconds>',
    'DOWNLOADER_ROBOTS_FAILURE_TTL_SECONDS',
    'how long a 5xx / unreachable robots.txt (disallow all) is cached before a retry',
    wholeNumber(1, DAY_SECONDS),
    600,
  ),
  objectRetentionDays: setting(
    '--object-retention-days <days>',
    'DOWNLOADER_OBJECT_RETENTION_DAYS',
    'how long stored web page objects are kept (0 = forever)',
    wholeNumber(0, 3650),
    30,
  ),
  auditRetentionDays: setting(
    '--audit-retention-days <days>',
    'DOWNLOADER_AUDIT_RETENTION_DAYS',
    'how long fetch audit records are kept',
    wholeNumber(1, 3650),
    90,
  ),
  isLeaseLoopEnabled: setting(
    '--lease-loop <on|off>',
    'DOWNLOADER_LEASE_LOOP',
    'entry A; off for a render-only node (on needs a scheduler token)',
    onOff,
    true,
  ),
  schedulerUrl: setting(
    '--scheduler-url <url>',
    'SCHEDULER_URL',
    'base URL of the scheduler',
    absoluteUrl,
    'http://127.0.0.1:7101',
  ),
  schedulerToken: setting(
    '--scheduler-token <token>',
    'SCHEDULER_TOKEN',
    "the scheduler's bearer token (never logged)",
    plainText,
  ),
  workerId: setting(
    '--worker-id <id>',
    'DOWNLOADER_WORKER_ID',
    'stable worker_id sent with every lease and report',
    workerIdentifier,
    defaultWorkerId(),
  ),
  leaseTaskCount: setting(
    '--lease-task-count <count>',
    'DOWNLOADER_LEASE_TASK_COUNT',
    'most tasks per lease (fewer when there is less room)',
    wholeNumber(1, 500),
    50,
  ),
  leaseTtlSeconds: setting(
    '--lease-ttl-seconds <seconds>',
    'DOWNLOADER_LEASE_TTL_SECONDS',
    'lease_ttl_seconds asked for',
    wholeNumber(10, 3600),
    120,
  ),
  leasePollIntervalMs: setting(
    '--lease-poll-interval-ms <ms>',
    'DOWNLOADER_LEASE_POLL_INTERVAL_MS',
    'wait after an empty lease or a failed lease call',
    wholeNumber(10, 600_000),
    2000,
  ),
  runtimeFlushIntervalMs: setting(
    '--runtime-flush-interval-ms <ms>',
    'DOWNLOADER_RUNTIME_FLUSH_INTERVAL_MS',
    'write-behind period of downloader:domain_runtime',
    wholeNumber(50, 60_000),
    1000,
  ),
} as const;

type Definitions = typeof DOWNLOADER_SETTINGS;
type ValueOf<S> = S extends Setting<infer T> ? T : never;

/** The resolved settings; optional ones stay undefined when not given. */
export type DownloaderSettings = { [K in keyof Definitions]: ValueOf<Definitions[K]> } & {
  /** `crawlerName (+contactUrl)`: honest, with a way to complain. */
  readonly userAgent: string;
};

/** Registers every flag (without defaults: a flag must be told apart from the variable). */
export function addDownloaderOptions(command: Command): void {
  for (const definition of Object.values(DOWNLOADER_SETTINGS)) {
    command.option(
      definition.flag,
      `${definition.description} (env ${definition.variable}${
        definition.fallback === undefined ? '' : `, default ${String(definition.fallback)}`
      })`,
    );
  }
}

/** The commander key of a flag: `--lease-ttl-seconds <s>` → `leaseTtlSeconds`. */
function optionKey(flag: string): string {
  return flag
    .split(' ')[0]
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

export function readDownloaderSettings(
  options: Record<string, unknown>,
  environment: NodeJS.ProcessEnv,
): DownloaderSettings {
  const values: Record<string, unknown> = {};
  for (const [key, definition] of Object.entries(DOWNLOADER_SETTINGS)) {
    const given = options[optionKey(definition.flag)] ?? environment[definition.variable];
    const name = `${definition.flag.split(' ')[0]} (${definition.variable})`;
    values[key] =
      typeof given === 'string'
        ? (definition.parse as Parser<unknown>)(given, name)
        : definition.fallback;
  }
  const settings = values as Omit<DownloaderSettings, 'userAgent'>;
  if (settings.backoffCapMs < settings.backoffBaseMs) {
    throw new InvalidArgumentError('--backoff-cap-ms must not be below --backoff-base-ms');
  }
  return {
    ...settings,
    robotsUserAgent: settings.robotsUserAgent ?? settings.crawlerName.split('/')[0],
    userAgent: `${settings.crawlerName} (+${settings.contactUrl})`,
  };
}
