import type { Logger } from 'pino';
import type { ApiEndpoint } from '../../common/api-endpoint';
import type { Clock } from '../sampler-clock';
import { msOfTimeText, timeTextOf } from '../sampler-clock';
import type {
  DomainRuleDocument,
  DomainRuleWire,
  RuleOrigin,
  UndeterminedReason,
  Verdict,
} from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { walkTable } from '../storage/table-walk';

const SECOND_MS = 1000;

/** A decision about a domain, from the sampling procedure or a confirmed hint. */
export interface RuleDecision {
  domain: string;
  verdict: Verdict;
  undeterminedReason: UndeterminedReason | null;
  minIntervalMs: number;
  waitSelector: string | null;
  robotsTxt: string | null;
  origin: RuleOrigin;
  confidenceScore: number;
  /**
   * How the domain's pages are fetched (v2). Absent: the current rule's strategy carries over while
   * the verdict still needs rendering (csr, partial) — a re-sampled verdict does not drop a
   * verified API mapping; only a failed verification does (it says `render`).
   */
  fetchStrategy?: FetchStrategy;
}

/** `render_strategy` with its `api_endpoint`: an api rule always has its mapping. */
export type FetchStrategy =
  { renderStrategy: 'render' } | { renderStrategy: 'api'; apiEndpoint: ApiEndpoint };

/** Verdicts whose pages need rendering: the only ones an API mapping can stand in for. */
export function isRenderNeedingVerdict(verdict: Verdict): boolean {
  return verdict === 'csr' || verdict === 'partial';
}

/** The strategy a decision writes, given the rule it replaces. */
function fetchStrategyOf(decision: RuleDecision, previous?: DomainRuleDocument): FetchStrategy {
  if (decision.fetchStrategy !== undefined) return decision.fetchStrategy;
  if (
    previous?.render_strategy === 'api' &&
    previous.api_endpoint != null &&
    isRenderNeedingVerdict(decision.verdict)
  ) {
    return { renderStrategy: 'api', apiEndpoint: previous.api_endpoint };
  }
  return { renderStrategy: 'render' };
}

/** The decision a stored rule stands for (to write it again with another strategy). */
export function decisionOfRule(rule: DomainRuleDocument): RuleDecision {
  return {
    domain: rule.domain,
    verdict: rule.verdict,
    undeterminedReason: rule.undetermined_reason,
    minIntervalMs: rule.min_interval_ms,
    waitSelector: rule.wait_selector,
    robotsTxt: rule.robots_txt,
    origin: rule.rule_origin,
    confidenceScore: rule.confidence_score,
  };
}

export interface RuleBookDependencies {
  tables: SamplerTables;
  clock: Clock;
  logger: Logger;
  /** The base rank of every rule the sampler writes (RulesRequest.priority_rank). */
  priorityRank: number;
  /** Told whenever a rule waits in the outbox (the poster wakes up). */
  onQueued: () => void;
  /** Told about every rule written (the API hint verifier wakes a domain's waiting hints). */
  onRecorded?: (rule: DomainRuleDocument) => void;
}

/** The rule as it travels to the scheduler: exactly the DomainRule fields, nothing of ours. */
export function wireRuleOf(rule: DomainRuleWire): DomainRuleWire {
  return {
    domain: rule.domain,
    verdict: rule.verdict,
    undetermined_reason: rule.undetermined_reason,
    min_interval_ms: rule.min_interval_ms,
    wait_selector: rule.wait_selector,
    priority_rank: rule.priority_rank,
    robots_txt: rule.robots_txt,
    verified_at: rule.verified_at,
    revisit_interval_seconds: rule.revisit_interval_seconds ?? null,
    // A rule stored before v2 has neither: it is a render rule.
    render_strategy: rule.render_strategy ?? 'render',
    api_endpoint: rule.render_strategy === 'api' ? (rule.api_endpoint ?? null) : null,
  };
}

/**
 * `sampler:domain_rule` — the sampler is its sole owner — and the outbox that carries each rule to
 * the scheduler. A rule is written to `rule_outbox_task` first and to `domain_rule` second: a crash
 * between the two leaves a row the poster still sends and `reconcile` writes back at start, so a
 * decided rule can never miss the scheduler. Callers hold the sampler's state lock.
 */
export class RuleBook {
  readonly #verdictCounts = new Map<Verdict, number>();

  private constructor(private readonly dependencies: RuleBookDependencies) {}

  /** Opens the book: counts the stored rules per verdict and repairs an interrupted write. */
  static async open(dependencies: RuleBookDependencies): Promise<RuleBook> {
    const book = new RuleBook(dependencies);
    await book.#reconcileOutbox();
    await book.#countVerdicts();
    return book;
  }

  get(domain: string): Promise<DomainRuleDocument | undefined> {
    return this.dependencies.tables.rules.get(domain);
  }

  /** Writes the rule (outbox first) and wakes the poster. `verified_at` only ever moves forward. */
  async record(decision: RuleDecision): Promise<DomainRuleDocument> {
    const { tables, clock, priorityRank } = this.dependencies;
    const previous = await tables.rules.get(decision.domain);
    // The scheduler keeps the newest verified_at per domain (an equal one is a duplicate, an older
    // one outdated): a decision within the same second as the last must still be newer.
    const verifiedAtMs = Math.max(
      Math.floor(clock.nowMs() / SECOND_MS) * SECOND_MS,
      previous === undefined ? 0 : msOfTimeText(previous.verified_at) + SECOND_MS,
    );
    const strategy = fetchStrategyOf(decision, previous);
    if (previous?.render_strategy === 'api' && strategy.renderStrategy === 'render') {
      this.dependencies.logger.info(
        { domain: decision.domain, verdict: decision.verdict },
        'the rule goes back from api to render',
      );
    }
    const rule: DomainRuleDocument = {
      domain: decision.domain,
      verdict: decision.verdict,
      undetermined_reason: decision.verdict === 'unknown' ? decision.undeterminedReason : null,
      min_interval_ms: decision.minIntervalMs,
      wait_selector: decision.waitSelector,
      priority_rank: priorityRank,
      robots_txt: decision.robotsTxt,
      verified_at: timeTextOf(verifiedAtMs),
      revisit_interval_seconds: null,
      render_strategy: strategy.renderStrategy,
      api_endpoint: strategy.renderStrategy === 'api' ? strategy.apiEndpoint : null,
      rule_origin: decision.origin,
      confidence_score: decision.confidenceScore,
    };
    await tables.ruleOutbox.put(rule.domain, {
      domain_rule: rule,
      queued_at: timeTextOf(clock.nowMs()),
    });
    await tables.rules.put(rule.domain, rule);
    this.#count(previous?.verdict, -1);
    this.#count(rule.verdict, 1);
    this.dependencies.onQueued();
    this.dependencies.onRecorded?.(rule);
    return rule;
  }

  /**
   * Sends the current rule again: the scheduler lists the domain as a candidate, so it lost the
   * rule (a wiped keyspace). Nothing is re-decided; the same verified_at travels again.
   */
  async resend(domain: string): Promise<boolean> {
    const { tables, clock } = this.dependencies;
    const rule = await tables.rules.get(domain);
    if (rule === undefined || (await tables.ruleOutbox.get(domain)) !== undefined) return false;
    await tables.ruleOutbox.put(domain, {
      domain_rule: rule,
      queued_at: timeTextOf(clock.nowMs()),
    });
    this.dependencies.onQueued();
    return true;
  }

  /** Domains per verdict of their current rule. */
  verdictCounts(): ReadonlyMap<Verdict, number> {
    return this.#verdictCounts;
  }

  get ruledDomainCount(): number {
    let total = 0;
    for (const count of this.#verdictCounts.values()) total += count;
    return total;
  }

  #count(verdict: Verdict | undefined, delta: number): void {
    if (verdict === undefined) return;
    const next = (this.#verdictCounts.get(verdict) ?? 0) + delta;
    if (next > 0) this.#verdictCounts.set(verdict, next);
    else this.#verdictCounts.delete(verdict);
  }

  #countVerdicts(): Promise<void> {
    return walkTable(this.dependencies.tables.rules, (row) => this.#count(row.value.verdict, 1));
  }

  /** A crash between the outbox write and the rule write: the outbox holds the newer rule. */
  async #reconcileOutbox(): Promise<void> {
    const { tables, logger } = this.dependencies;
    await walkTable(tables.ruleOutbox, async ({ value }) => {
      const queued = value.domain_rule;
      const stored = await tables.rules.get(queued.domain);
      const isNewer =
        stored === undefined || msOfTimeText(stored.verified_at) < msOfTimeText(queued.verified_at);
      if (isNewer) {
        await tables.rules.put(queued.domain, queued);
        logger.warn({ domain: queued.domain }, 'rule restored from the outbox after a crash');
      }
    });
  }
}
