import robotsParser from 'robots-parser';
import { CRAWLER_PRODUCT_TOKEN } from '../../common/config/crawler-identity';

/**
 * A domain's robots.txt as the sampler reads it: which sample pages it may ask for, its
 * Crawl-delay and its Sitemap lines. Groups are matched with the same product token the
 * downloader and the scheduler use (crawler-identity.ts), so all three select the same group.
 */
export class RobotsFile {
  private readonly parsed: ReturnType<typeof robotsParser> | null;

  /**
   * @param origin `scheme://host[:port]` the file was fetched from.
   * @param text the body; null when the site has none (a 4xx: everything is allowed).
   */
  constructor(
    readonly origin: string,
    readonly text: string | null,
    private readonly userAgentToken: string = CRAWLER_PRODUCT_TOKEN,
  ) {
    this.parsed = text === null ? null : robotsParser(`${origin}/robots.txt`, text);
  }

  isAllowed(url: string): boolean {
    // undefined = another origin's URL: robots.txt says nothing about it; the caller filters hosts.
    return this.parsed === null || this.parsed.isAllowed(url, this.userAgentToken) !== false;
  }

  /** Crawl-delay in seconds for our group; null when none is set or it is not a number. */
  get crawlDelaySeconds(): number | null {
    const value = this.parsed?.getCrawlDelay(this.userAgentToken);
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
  }

  /** Sitemap URLs the file announces (any origin; the caller keeps the same-host ones). */
  get sitemapUrls(): string[] {
    return this.parsed?.getSitemaps() ?? [];
  }
}
