import { apiEndpointProblems } from '../../common/api-endpoint';
import { domainOfUrl } from '../../common/url';
import type { Clock } from './clock';
import type { DomainBook } from './domain-book';
import type { DomainReconciler } from './domain-reconciler';
import { IncoherentRuleError } from './frontier-errors';
import type { StoredDomainRule } from './frontier-documents';
import type { FrontierTables } from './frontier-tables';
import type { FrontierMutator } from './frontier-mutator';
import type { RuleBook } from './rule-book';
import { msOfTimeText, timeTextOf } from './time-text';
import type { DomainRule, RenderStrategy } from './wire-types';

export interface RulesOutcome {
  accepted_count: number;
  duplicate_count: number;
  outdated_count: number;
}

/**
 * POST /v1/rules: the read-only replica of the sampler's rules, written only here. Idempotent by
 * domain + verified_at — a repeat is a duplicate and changes nothing; an older verified_at never
 * overwrites a newer one. An accepted rule is applied to the URLs already waiting for it (or to an
 * excluded domain's queue) before the answer, up to `inlineUrlBudget` URLs; the rest continues in
 * the background.
 */
export interface RuleIntakeDependencies {
  mutator: FrontierMutator;
  clock: Clock;
  tables: FrontierTables;
  rules: RuleBook;
  book: DomainBook;
  reconciler: DomainReconciler;
  /** URLs the request itself moves on before answering; the rest continue in the background. */
  inlineUrlBudget: number;
  /** A domain's fetch switched between render and api (or its first rule says api): for logs. */
  onRenderStrategyChanged?: (domain: string, renderStrategy: RenderStrategy) => void;
}

export class RuleIntake {
  constructor(private readonly dependencies: RuleIntakeDependencies) {}

  /** `ruleList` holds only the contract's fields (the edge picked them; unknown ones are not kept). */
  async submit(ruleList: readonly DomainRule[]): Promise<RulesOutcome> {
    ruleList.forEach(assertRuleIsCoherent);
    const { mutator, reconciler, clock, inlineUrlBudget } = this.dependencies;
    const outcome = await mutator.run(() => this.#store(ruleList));
    await reconciler.runPending(inlineUrlBudget, () => clock.nowMs());
    return outcome;
  }

  async #store(ruleList: readonly DomainRule[]): Promise<RulesOutcome> {
    const { clock, tables, rules, book, reconciler } = this.dependencies;
    const nowMs = clock.nowMs();
    const outcome: RulesOutcome = { accepted_count: 0, duplicate_count: 0, outdated_count: 0 };
    const accepted = new Map<string, StoredDomainRule>();
    // The rule book holds every rule's verified_at (loaded at start; this is the only writer).
    const latestVerifiedAt = (domain: string) =>
      accepted.get(domain)?.verified_at ?? rules.get(domain)?.verifiedAt;
    for (const rule of ruleList) {
      const current = latestVerifiedAt(rule.domain);
      if (current === rule.verified_at) {
        outcome.duplicate_count += 1;
      } else if (current !== undefined && msOfTimeText(rule.verified_at) < msOfTimeText(current)) {
        outcome.outdated_count += 1;
      } else {
        accepted.set(rule.domain, { ...rule, received_at: timeTextOf(nowMs) });
        outcome.accepted_count += 1;
      }
    }
    // Awaited under the lock: rules are rare, and every later decision must find them stored.
    await tables.rules.applyReplica(
      [...accepted.values()].map((rule) => ({ primaryKey: rule.domain, value: rule })),
    );
    for (const rule of accepted.values()) {
      const previousStrategy = rules.get(rule.domain)?.renderStrategy ?? 'render';
      const { renderStrategy } = rules.remember(rule);
      if (renderStrategy !== previousStrategy) {
        this.dependencies.onRenderStrategyChanged?.(rule.domain, renderStrategy);
      }
      const schedule = book.get(rule.domain);
      if (schedule !== undefined) book.touch(schedule);
      reconciler.enqueue(rule.domain);
    }
    return outcome;
  }
}

/**
 * What the schema cannot say: the verdict/reason pairing, the render_strategy/api_endpoint pairing
 * (with a mapping that can be applied), and a normalized host name.
 */
function assertRuleIsCoherent(rule: DomainRule, index: number): void {
  const strategyProblem = renderStrategyProblemOf(rule);
  if (strategyProblem !== undefined) throw new IncoherentRuleError(index, strategyProblem);
  if ((rule.verdict === 'unknown') !== (rule.undetermined_reason !== null)) {
    throw new IncoherentRuleError(
      index,
      rule.verdict === 'unknown'
        ? 'verdict unknown requires undetermined_reason'
        : 'undetermined_reason must be null unless verdict is unknown',
    );
  }
  if (normalizedHost(rule.domain) !== rule.domain) {
    throw new IncoherentRuleError(
      index,
      `domain "${rule.domain}" is not a lowercase host name` +
        (normalizedHost(rule.domain) ? ` (did you mean "${normalizedHost(rule.domain)}"?)` : ''),
    );
  }
}

/** An api rule needs a usable api_endpoint; any other rule has none (CONTRACT.md DomainRule). */
function renderStrategyProblemOf(rule: DomainRule): string | undefined {
  const endpoint = rule.api_endpoint ?? null;
  if (rule.render_strategy !== 'api') {
    return endpoint === null
      ? undefined
      : 'api_endpoint must be null unless render_strategy is api';
  }
  if (endpoint === null) return 'render_strategy api requires api_endpoint';
  const problems = apiEndpointProblems(endpoint);
  return problems.length === 0 ? undefined : `api_endpoint: ${problems.join('; ')}`;
}

function normalizedHost(domain: string): string | undefined {
  if (/[/:?#@\s]/.test(domain.replace(/^\[[0-9a-f:.]+\]$/i, ''))) return undefined;
  try {
    return domainOfUrl(`http://${domain}/`);
  } catch {
    return undefined;
  }
}
