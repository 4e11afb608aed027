import robotsParser from 'robots-parser';

type Robots = ReturnType<typeof robotsParser>;

/** Reads a domain's robots.txt from the rule replica (null: none known). */
export type RobotsTextLoader = (domain: string) => Promise<string | null | undefined>;

/** The content_hash of a domain's current robots.txt (RuleSummary), null or undefined: none. */
export type RobotsTextHashLookup = (domain: string) => string | null | undefined;

/**
 * Every file is parsed as if it were this origin's, and every URL asked about is moved onto it:
 * robots-parser answers only for URLs of the origin a file was parsed for, but its rules match
 * the path and query alone — so one parse serves every domain (and both schemes) with that file.
 */
const PARSE_ORIGIN = 'http://robots.invalid';

/**
 * Answers "may this URL be crawled?" from the robots.txt the sampler put in the domain's rule
 * (fetched through the downloader; the scheduler never contacts a site).
 *
 * Parsed files are cached by their content hash, not by domain: crawls meet the same few files on
 * many domains (empty rule sets, CMS and hosting defaults), and a domain whose file is cached costs
 * no storage read. A new rule with a new file has a new hash, so nothing needs to be forgotten.
 * The cache keeps two generations of `generationSize` files: lookups promote a file to the current
 * generation; when it is full, it becomes the previous one and the oldest is dropped — close to
 * least-recently-used in O(1), which matters when a crawl of 100,000 domains touches a different
 * domain on nearly every lookup.
 */
export class RobotsPolicy {
  #current = new Map<string, Robots | null>();
  #previous = new Map<string, Robots | null>();

  constructor(
    private readonly dependencies: {
      robotsTextHashOf: RobotsTextHashLookup;
      loadRobotsText: RobotsTextLoader;
      userAgent: string;
      generationSize?: number;
    },
  ) {}

  async isAllowed(domain: string, url: string): Promise<boolean> {
    const known = this.knownVerdict(domain, url);
    if (known !== undefined) return known;
    // knownVerdict found a hash, and no parse of its file.
    const textHash = this.dependencies.robotsTextHashOf(domain) as string;
    const text = await this.dependencies.loadRobotsText(domain);
    const robots = text ? robotsParser(`${PARSE_ORIGIN}/robots.txt`, text) : null;
    this.#remember(textHash, robots);
    return this.#allows(robots, url);
  }

  /**
   * isAllowed's answer when it needs no read — the domain has no file, or its file is parsed
   * already (nearly always, on a hot path) — without a promise; undefined when the file must be
   * read first (isAllowed).
   */
  knownVerdict(domain: string, url: string): boolean | undefined {
    const textHash = this.dependencies.robotsTextHashOf(domain);
    if (textHash === null || textHash === undefined) return true;
    const robots = this.#lookUp(textHash);
    return robots === undefined ? undefined : this.#allows(robots, url);
  }

  #allows(robots: Robots | null, url: string): boolean {
    // A missing file allows everything; undefined ("not this file's origin") cannot happen here.
    return (
      robots === null ||
      robots.isAllowed(PARSE_ORIGIN + pathOf(url), this.dependencies.userAgent) !== false
    );
  }

  #lookUp(textHash: string): Robots | null | undefined {
    const current = this.#current.get(textHash);
    if (current !== undefined) return current;
    const previous = this.#previous.get(textHash);
    if (previous !== undefined) this.#remember(textHash, previous);
    return previous;
  }

  #remember(textHash: string, robots: Robots | null): void {
    if (this.#current.size >= (this.dependencies.generationSize ?? 20_000)) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#previous.delete(textHash);
    this.#current.set(textHash, robots);
  }
}

/** Path and query of a normalized URL (`scheme://host[:port]/…`), without parsing it again. */
function pathOf(normalizedUrl: string): string {
  const pathStart = normalizedUrl.indexOf('/', normalizedUrl.indexOf('//') + 2);
  return pathStart === -1 ? '/' : normalizedUrl.slice(pathStart);
}
