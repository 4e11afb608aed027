import robotsParser from 'robots-parser';
import type { FailReason } from '../rendering/render-outcome';

/**
 * RFC 9309 in three outcomes:
 *  - `follow_rules`: robots.txt answered 2xx; its groups decide (for our user-agent token, else `*`);
 *  - `allow_all`: 4xx (the file is unavailable), or more redirects than we follow;
 *  - `disallow_all`: 5xx, no answer at all (DNS, connection, TLS, timeout), or 429 — fail closed.
 * 429 is a 4xx, but it says "slow down", not "there is no file": we treat it like a server error
 * (as the large crawlers do) rather than read it as permission to crawl everything.
 */
export type RobotsPolicy = 'follow_rules' | 'allow_all' | 'disallow_all';

/** `downloader:robots_txt_object:{domain}` as stored. */
export interface RobotsTxtObject {
  domain: string;
  /** The robots.txt this answer is for (scheme, host and port: RFC 9309 scopes it to the origin). */
  robots_txt_url: string;
  robots_policy: RobotsPolicy;
  /** Status of robots.txt; null when it did not answer. */
  http_status: number | null;
  /** The body when it is followed (the first MAX_ROBOTS_TXT_CHARACTERS); null otherwise. */
  robots_txt: string | null;
  fetched_at: string;
  expires_at: string;
}

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB. */
export const MAX_ROBOTS_TXT_CHARACTERS = 512 * 1024;

/** What fetching robots.txt produced. */
export interface RobotsAnswer {
  /** Final status of the fetch; null when nothing answered. */
  readonly httpStatus: number | null;
  readonly body: string | null;
  /** Set when the fetch failed. */
  readonly failReason?: FailReason;
}

export function robotsPolicyOf(answer: RobotsAnswer): RobotsPolicy {
  const status = answer.httpStatus;
  if (status === null) {
    // A redirect loop is "unavailable" (RFC 9309 §2.3.1.2); every other failure is "unreachable".
    return answer.failReason === 'http_client_error' ? 'allow_all' : 'disallow_all';
  }
  if (status >= 200 && status < 300) return 'follow_rules';
  if (status === 429 || status >= 500) return 'disallow_all';
  if (status >= 400) return 'allow_all';
  return 'disallow_all';
}

/** `http://host:port/robots.txt` for the origin of a normalized URL. */
export function robotsTxtUrlOf(url: string): string {
  return `${new URL(url).origin}/robots.txt`;
}

export function isRobotsTxtUrl(url: string): boolean {
  const parsed = new URL(url);
  return parsed.pathname === '/robots.txt' && parsed.search === '';
}

/** A stored answer, parsed once, deciding URLs of its origin. */
export class RobotsRules {
  private readonly parsed: ReturnType<typeof robotsParser> | undefined;

  constructor(readonly object: RobotsTxtObject) {
    this.parsed =
      object.robots_policy === 'follow_rules'
        ? robotsParser(object.robots_txt_url, object.robots_txt ?? '')
        : undefined;
  }

  get expiresAtMs(): number {
    return Date.parse(this.object.expires_at);
  }

  /** `userAgentToken` is matched case-insensitively against the groups' User-agent lines. */
  isAllowed(url: string, userAgentToken: string): boolean {
    switch (this.object.robots_policy) {
      case 'allow_all':
        return true;
      case 'disallow_all':
        return false;
      case 'follow_rules':
        // undefined = a URL of another origin; callers never ask that, and refusing is the safe side.
        return this.parsed?.isAllowed(url, userAgentToken) ?? false;
    }
  }
}
