import type { StoredDomainRule } from './frontier-documents';
import { isCrawlableVerdict, type Verdict } from './wire-types';

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
  /** The rule carries a robots.txt (otherwise there is nothing to load or parse). */
  hasRobotsText: boolean;
}

/**
 * The rules of every domain, summarised in memory (a few hundred bytes per domain), so leasing and
 * link intake never read or parse a rule document. Loaded from domain_rule_replica at start-up and
 * updated by POST /v1/rules, its only writer.
 */
export class RuleBook {
  readonly #rules = new Map<string, RuleSummary>();

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
      hasRobotsText: rule.robots_txt !== null && rule.robots_txt !== '',
    };
    this.#rules.set(rule.domain, summary);
    return summary;
  }

  get size(): number {
    return this.#rules.size;
  }

  domains(): IterableIterator<string> {
    return this.#rules.keys();
  }
}
