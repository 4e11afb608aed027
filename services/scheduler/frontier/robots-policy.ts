import robotsParser from 'robots-parser';

type Robots = ReturnType<typeof robotsParser>;

/** Reads a domain's robots.txt from the rule replica (null: none known). */
export type RobotsTextLoader = (domain: string) => Promise<string | null | undefined>;

/** Parsed robots.txt per origin of one domain (http and https parse the same text separately). */
type ParsedByOrigin = Map<string, Robots | null>;

/**
 * Answers "may this URL be crawled?" from the robots.txt the sampler put in the domain's rule
 * (fetched through the downloader; the scheduler never contacts a site). robots-parser only
 * answers for URLs of the origin a file was parsed for, so each origin gets its own parse.
 *
 * Parsed files are cached in two generations of `generationSize` domains: lookups promote a domain
 * to the current generation; when it is full, it becomes the previous one and the oldest is
 * dropped. That approximates least-recently-used in O(1) without walking a map, which matters when
 * a crawl of 100,000 domains touches a different domain on nearly every lookup.
 */
export class RobotsPolicy {
  #current = new Map<string, ParsedByOrigin>();
  #previous = new Map<string, ParsedByOrigin>();

  constructor(
    private readonly loadRobotsText: RobotsTextLoader,
    private readonly userAgent: string,
    private readonly generationSize = 20_000,
  ) {}

  async isAllowed(domain: string, url: string): Promise<boolean> {
    const origin = originOf(url);
    const byOrigin = this.#lookUp(domain);
    let robots = byOrigin.get(origin);
    if (robots === undefined) {
      const text = await this.loadRobotsText(domain);
      robots = text ? robotsParser(`${origin}/robots.txt`, text) : null;
      byOrigin.set(origin, robots);
    }
    // undefined means "not this file's origin"; it cannot happen here, and allowing is the
    // behaviour for a missing file.
    return robots === null || robots.isAllowed(url, this.userAgent) !== false;
  }

  /** A new rule arrived for `domain`: its robots.txt may have changed. */
  forget(domain: string): void {
    this.#current.delete(domain);
    this.#previous.delete(domain);
  }

  #lookUp(domain: string): ParsedByOrigin {
    let byOrigin = this.#current.get(domain);
    if (byOrigin !== undefined) return byOrigin;
    byOrigin = this.#previous.get(domain) ?? new Map();
    this.#previous.delete(domain);
    if (this.#current.size >= this.generationSize) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(domain, byOrigin);
    return byOrigin;
  }
}

/** The origin of a normalized URL (`scheme://host[:port]`), without parsing it again. */
function originOf(normalizedUrl: string): string {
  const pathStart = normalizedUrl.indexOf('/', normalizedUrl.indexOf('//') + 2);
  return pathStart === -1 ? normalizedUrl : normalizedUrl.slice(0, pathStart);
}
