import type { Logger } from 'pino';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { HeldBack } from '../rate-limit/admission-controller';
import { formatContractTime } from '../rendering/contract-time';
import {
  isRobotsTxtUrl,
  MAX_ROBOTS_TXT_CHARACTERS,
  robotsPolicyOf,
  RobotsRules,
  robotsTxtUrlOf,
  type RobotsAnswer,
  type RobotsTxtObject,
} from './robots-rules';

export interface RobotsGateSettings {
  /** The token matched against User-agent lines. */
  readonly robotsUserAgent: string;
  /** How long a 2xx / 4xx answer is cached. */
  readonly cacheTtlSeconds: number;
  /** How long a fail-closed answer (5xx, 429, unreachable) is cached before it is fetched again. */
  readonly failureTtlSeconds: number;
}

/** Fetches robots.txt through the rate-limit path; held back when the domain is over its limit. */
export type RobotsFetcher = (robotsTxtUrl: string) => Promise<RobotsAnswer | HeldBack>;

export type RobotsCheck =
  | {
      readonly kind: 'allowed' | 'disallowed';
      /** True when this check fetched robots.txt itself (it then counted as a request). */
      readonly didFetch: boolean;
      readonly rules: RobotsRules | undefined;
    }
  | { readonly kind: 'held_back'; readonly decision: HeldBack };

export interface RobotsGateEvents {
  fetched?(object: RobotsTxtObject): void;
  decided?(url: string, isAllowed: boolean, object: RobotsTxtObject | undefined): void;
}

/** Parsed answers kept in memory; beyond this many domains the oldest are read from storage again. */
const MEMORY_ENTRY_LIMIT = 10_000;

/**
 * robots.txt for crawl and render requests: cached per domain in memory and in
 * `downloader:robots_txt_object:{domain}` (with a TTL), fetched through the same rate-limit path as
 * any request to the domain (it counts as one), one fetch at a time per robots.txt.
 */
export class RobotsGate {
  private readonly memory = new Map<string, RobotsRules>();
  private readonly flights = new Map<string, Promise<RobotsRules | HeldBack>>();

  constructor(
    private readonly table: KeyspaceTable<RobotsTxtObject>,
    private readonly settings: RobotsGateSettings,
    private readonly logger: Logger,
    private readonly events: RobotsGateEvents = {},
  ) {}

  /** `url` is normalized; `domain` its rate-limit domain. */
  async check(url: string, domain: string, fetchRobots: RobotsFetcher): Promise<RobotsCheck> {
    if (isRobotsTxtUrl(url)) {
      // robots.txt itself is never subject to robots.txt.
      return { kind: 'allowed', didFetch: false, rules: undefined };
    }
    const robotsTxtUrl = robotsTxtUrlOf(url);
    const cached = await this.cached(domain, robotsTxtUrl);
    if (cached !== undefined) return this.decide(url, cached, { didFetch: false });
    const pending = this.flights.get(robotsTxtUrl);
    if (pending !== undefined) {
      const shared = await pending;
      // A flight held back by another caller's limit is no answer for us: fetch ourselves.
      if (shared instanceof RobotsRules) return this.decide(url, shared, { didFetch: false });
    }
    const flight = this.fetchAndStore(domain, robotsTxtUrl, fetchRobots);
    this.flights.set(robotsTxtUrl, flight);
    let result: RobotsRules | HeldBack;
    try {
      result = await flight;
    } finally {
      if (this.flights.get(robotsTxtUrl) === flight) this.flights.delete(robotsTxtUrl);
    }
    return result instanceof RobotsRules
      ? this.decide(url, result, { didFetch: true })
      : { kind: 'held_back', decision: result };
  }

  private decide(
    url: string,
    rules: RobotsRules,
    { didFetch }: { didFetch: boolean },
  ): RobotsCheck {
    const isAllowed = rules.isAllowed(url, this.settings.robotsUserAgent);
    this.events.decided?.(url, isAllowed, rules.object);
    return { kind: isAllowed ? 'allowed' : 'disallowed', didFetch, rules };
  }

  private async cached(domain: string, robotsTxtUrl: string): Promise<RobotsRules | undefined> {
    const nowMs = Date.now();
    const isUsable = (rules: RobotsRules | undefined): rules is RobotsRules =>
      rules !== undefined &&
      rules.object.robots_txt_url === robotsTxtUrl &&
      rules.expiresAtMs > nowMs;
    const inMemory = this.memory.get(domain);
    if (isUsable(inMemory)) return inMemory;
    const stored = await this.table.get(domain);
    const rules = stored === undefined ? undefined : new RobotsRules(stored);
    if (!isUsable(rules)) return undefined;
    this.remember(rules);
    return rules;
  }

  private async fetchAndStore(
    domain: string,
    robotsTxtUrl: string,
    fetchRobots: RobotsFetcher,
  ): Promise<RobotsRules | HeldBack> {
    const answer = await fetchRobots(robotsTxtUrl);
    if ('isGranted' in answer) return answer;
    const policy = robotsPolicyOf(answer);
    const ttlSeconds =
      policy === 'disallow_all' ? this.settings.failureTtlSeconds : this.settings.cacheTtlSeconds;
    const nowMs = Date.now();
    const object: RobotsTxtObject = {
      domain,
      robots_txt_url: robotsTxtUrl,
      robots_policy: policy,
      http_status: answer.httpStatus,
      robots_txt:
        policy === 'follow_rules' ? (answer.body ?? '').slice(0, MAX_ROBOTS_TXT_CHARACTERS) : null,
      fetched_at: formatContractTime(new Date(nowMs)),
      expires_at: formatContractTime(new Date(nowMs + ttlSeconds * 1000)),
    };
    const rules = new RobotsRules(object);
    this.remember(rules);
    this.events.fetched?.(object);
    try {
      await this.table.put(domain, object, { ttlSeconds });
    } catch (error) {
      // The answer still holds in memory; storage only saves a fetch after a restart.
      this.logger.warn({ err: error, domain }, 'robots.txt answer could not be stored');
    }
    return rules;
  }

  private remember(rules: RobotsRules): void {
    const domain = rules.object.domain;
    this.memory.delete(domain);
    this.memory.set(domain, rules);
    if (this.memory.size > MEMORY_ENTRY_LIMIT) {
      this.memory.delete(this.memory.keys().next().value as string);
    }
  }
}
