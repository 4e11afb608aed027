import { tryNormalizeUrl } from '../../common/url/normalize-url';
import type { RobotsFile } from './robots-file';

/**
 * Which pages of a domain get sampled, in which order. Sources, taken in turn so that the first
 * pages already differ in kind: the URLs the scheduler has seen (what will be crawled), the home
 * page, the sitemap's URLs (spread over the whole list, not its first entries), and — when those
 * run out — links found on pages rendered so far (main content first). Only URLs of the domain
 * that robots.txt allows are offered; login-looking paths go last (a seen `/login` says nothing
 * about the site), and obvious non-HTML files are skipped.
 */

const NON_PAGE_EXTENSION =
  /\.(pdf|jpe?g|png|gif|webp|svg|ico|css|js|mjs|json|xml|gz|zip|rar|7z|tar|mp3|mp4|webm|avi|mov|woff2?|ttf|eot|txt|csv|xlsx?|docx?|pptx?)$/i;
const LOGIN_LIKE_PATH =
  /(^|\/)(log-?in|sign-?in|sign-?up|register|auth|account|cart|checkout|logout)(\/|$)/i;

export interface LinkCandidate {
  readonly url: string;
  readonly dom_position: string;
}

export class SampleUrlQueue {
  private readonly offered = new Set<string>();
  private readonly sources: string[][] = [];
  private readonly lateUrls: string[] = [];
  private readonly linkUrls: string[] = [];
  private sourceIndex = 0;
  /** Candidates robots.txt refused: when nothing else is left, robots is why. */
  robotsRefusedCount = 0;

  constructor(
    private readonly domain: string,
    private readonly robots: RobotsFile,
  ) {}

  /** Adds one source (taken in turn with the others). */
  addSource(urls: readonly string[]): void {
    const accepted = urls
      .map((url) => this.accept(url))
      .filter((url): url is string => url !== null);
    const regular = accepted.filter((url) => !LOGIN_LIKE_PATH.test(new URL(url).pathname));
    this.lateUrls.push(...accepted.filter((url) => LOGIN_LIKE_PATH.test(new URL(url).pathname)));
    if (regular.length > 0) this.sources.push(regular);
  }

  /** Links of a rendered page: main-content links first. */
  addLinks(links: readonly LinkCandidate[]): void {
    const ordered = [
      ...links.filter((link) => link.dom_position === 'main'),
      ...links.filter((link) => link.dom_position !== 'main'),
    ];
    for (const link of ordered) {
      const url = this.accept(link.url);
      if (url !== null && !LOGIN_LIKE_PATH.test(new URL(url).pathname)) this.linkUrls.push(url);
    }
  }

  /** How many URLs are still waiting. */
  get remainingCount(): number {
    return (
      this.sources.reduce((sum, source) => sum + source.length, 0) +
      this.linkUrls.length +
      this.lateUrls.length
    );
  }

  next(): string | undefined {
    for (let tried = 0; tried < this.sources.length; tried += 1) {
      const source = this.sources[(this.sourceIndex + tried) % this.sources.length];
      const url = source.shift();
      if (url !== undefined) {
        this.sourceIndex = (this.sourceIndex + tried + 1) % this.sources.length;
        return url;
      }
    }
    return this.linkUrls.shift() ?? this.lateUrls.shift();
  }

  /** Normalized URL of this domain, allowed and not offered before; null otherwise. */
  private accept(url: string): string | null {
    const normalized = tryNormalizeUrl(url);
    if (normalized === undefined) return null;
    const parsed = new URL(normalized);
    if (parsed.hostname !== this.domain || NON_PAGE_EXTENSION.test(parsed.pathname)) return null;
    if (this.offered.has(normalized)) return null;
    this.offered.add(normalized);
    if (!this.robots.isAllowed(normalized)) {
      this.robotsRefusedCount += 1;
      return null;
    }
    return normalized;
  }
}

/** `count` entries spread evenly over `list` (first, last and between). */
export function spreadPick<T>(list: readonly T[], count: number): T[] {
  if (list.length <= count) return [...list];
  if (count <= 1) return list.slice(0, count);
  const picked: T[] = [];
  for (let index = 0; index < count; index += 1) {
    picked.push(list[Math.round((index * (list.length - 1)) / (count - 1))]);
  }
  return picked;
}
