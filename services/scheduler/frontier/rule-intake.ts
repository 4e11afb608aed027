import { invalidRequest } from '../../common/contract-runtime/contract-error';
import { domainOfUrl } from '../../common/url';
import type { Clock } from './clock';
import type { DomainBook } from './domain-book';
import type { DomainReconciler } from './domain-reconciler';
import type { StoredDomainRule } from './frontier-documents';
import type { FrontierTables } from './frontier-tables';
import { stagedWithoutWrites, type FrontierMutator } from './frontier-mutator';
import type { RobotsPolicy } from './robots-policy';
import type { RuleBook } from './rule-book';
import { msOfTimeText, timeTextOf } from './time-text';
import type { DomainRule } from './wire-types';

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
export class RuleIntake {
  constructor(
    private readonly mutator: FrontierMutator,
    private readonly clock: Clock,
    private readonly tables: FrontierTables,
    private readonly rules: RuleBook,
    private readonly robots: RobotsPolicy,
    private readonly book: DomainBook,
    private readonly reconciler: DomainReconciler,
    private readonly inlineUrlBudget: number,
  ) {}

  async submit(ruleList: readonly DomainRule[]): Promise<RulesOutcome> {
    ruleList.forEach(assertRuleIsCoherent);
    const outcome = await this.mutator.run(async () =>
      stagedWithoutWrites(await this.#store(ruleList)),
    );
    await this.reconciler.runPending(this.inlineUrlBudget, () => this.clock.nowMs(), this.mutator);
    return outcome;
  }

  async #store(ruleList: readonly DomainRule[]): Promise<RulesOutcome> {
    const nowMs = this.clock.nowMs();
    const outcome: RulesOutcome = { accepted_count: 0, duplicate_count: 0, outdated_count: 0 };
    const accepted = new Map<string, StoredDomainRule>();
    // The rule book holds every rule's verified_at (loaded at start; this is the only writer).
    const latestVerifiedAt = (domain: string) =>
      accepted.get(domain)?.verified_at ?? this.rules.get(domain)?.verifiedAt;
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
    await this.tables.rules.applyReplica(
      [...accepted.values()].map((rule) => ({ primaryKey: rule.domain, value: rule })),
    );
    for (const rule of accepted.values()) {
      this.rules.remember(rule);
      this.robots.forget(rule.domain);
      const schedule = this.book.get(rule.domain);
      if (schedule !== undefined) this.book.touch(schedule);
      this.reconciler.enqueue(rule.domain);
    }
    return outcome;
  }
}

/** What the schema cannot say: the verdict/reason pairing, and a normalized host name. */
function assertRuleIsCoherent(rule: DomainRule, index: number): void {
  if ((rule.verdict === 'unknown') !== (rule.undetermined_reason !== null)) {
    throw invalidRequest(
      rule.verdict === 'unknown'
        ? `rule_list[${index}]: verdict unknown requires undetermined_reason`
        : `rule_list[${index}]: undetermined_reason must be null unless verdict is unknown`,
    );
  }
  if (normalizedHost(rule.domain) !== rule.domain) {
    throw invalidRequest(
      `rule_list[${index}]: domain "${rule.domain}" is not a lowercase host name` +
        (normalizedHost(rule.domain) ? ` (did you mean "${normalizedHost(rule.domain)}"?)` : ''),
    );
  }
}

function normalizedHost(domain: string): string | undefined {
  if (/[/:?#@\s]/.test(domain.replace(/^\[[0-9a-f:.]+\]$/i, ''))) return undefined;
  try {
    return domainOfUrl(`http://${domain}/`);
  } catch {
    return undefined;
  }
}
