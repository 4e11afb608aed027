import type { ApiEndpoint } from '../../common/api-endpoint';
import { contentHash } from '../../common/url';
import type { StoredDomainRule } from './frontier-documents';
import { isCrawlableVerdict, type RenderStrategy, type Verdict } from './wire-types';

/** What the hot paths need of a rule; robots_txt stays in storage (it may be half a megabyte). */
export interface RuleSummary {
  domain: string;
  verdict: Verdict;
  minIntervalMs: number;
  waitSelector: string | null;
  priorityRank: number;
  revisitIntervalSeconds: number | null;
  verifiedAt: string;
  isCrawlable: boolean;
  /**
   * content_hash of the rule's robots.txt; null when it carries none (nothing to load or parse).
   * Domains with the same file share one parse (RobotsPolicy).
   */
  robotsTextHash: string | null;
  /** How the domain's pages are fetched (absent or null in the rule: render). */
  renderStrategy: RenderStrategy;
  /** The endpoint mapping of an api domain; null for a render domain. */
  apiEndpoint: ApiEndpoint | null;
}

/** Texts the memo of robots.txt hashes keeps: at most 1,024 of up to 16 KiB characters each. */
const ROBOTS_TEXT_MEMO_SIZE = 1024;
const ROBOTS_TEXT_MEMO_MAX_LENGTH = 16 * 1024;

/**
 * The rules of every domain, summarised in memory (a few hundred bytes per domain), so leasing and
 * link intake never read or parse a rule document. Loaded from domain_rule_replica at start-up and
 * updated by POST /v1/rules, its only writer.
 */
export class RuleBook {
  readonly #rules = new Map<string, RuleSummary>();
  #version = 0;
  /**
   * content_hash by robots.txt text, for the texts up to ROBOTS_TEXT_MEMO_MAX_LENGTH seen lately:
   * crawls meet the same few files on many domains (see RobotsPolicy), and a start-up that
   * remembered 100,000 rules with one file among them hashed it 100,000 times (~0.1 s at 1M URLs).
   * Bounded: cleared when full.
   */
  readonly #robotsTextHashes = new Map<string, string>();

  /**
   * Moves with every rule remembered: a summary looked up when it was V is still the domain's rule
   * while it is V (DomainBook.ruleOf keeps one per schedule on that condition).
   */
  get version(): number {
    return this.#version;
  }

  get(domain: string): RuleSummary | undefined {
    return this.#rules.get(domain);
  }

  remember(rule: StoredDomainRule): RuleSummary {
    const summary: RuleSummary = {
      domain: rule.domain,
      verdict: rule.verdict,
      minIntervalMs: rule.min_interval_ms,
      waitSelector: rule.wait_selector,
      priorityRank: rule.priority_rank,
      revisitIntervalSeconds: rule.revisit_interval_seconds ?? null,
      verifiedAt: rule.verified_at,
      isCrawlable: isCrawlableVerdict(rule.verdict),
      robotsTextHash:
        rule.robots_txt === null || rule.robots_txt === '' ? null : this.#hashOf(rule.robots_txt),
      // Rule intake admits api only with a usable endpoint; a v1 or pre-v2 rule has neither.
      renderStrategy: rule.render_strategy === 'api' && rule.api_endpoint ? 'api' : 'render',
      apiEndpoint: rule.render_strategy === 'api' ? (rule.api_endpoint ?? null) : null,
    };
    this.#rules.set(rule.domain, summary);
    this.#version += 1;
    return summary;
  }

  get size(): number {
    return this.#rules.size;
  }

  #hashOf(robotsText: string): string {
    if (robotsText.length > ROBOTS_TEXT_MEMO_MAX_LENGTH) return contentHash(robotsText);
    let textHash = this.#robotsTextHashes.get(robotsText);
    if (textHash === undefined) {
      if (this.#robotsTextHashes.size >= ROBOTS_TEXT_MEMO_SIZE) this.#robotsTextHashes.clear();
      textHash = contentHash(robotsText);
      this.#robotsTextHashes.set(robotsText, textHash);
    }
    return textHash;
  }

  domains(): IterableIterator<string> {
    return this.#rules.keys();
  }
}
