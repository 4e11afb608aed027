import { primaryKeyPrefix, type PrimaryKey } from '../../common/storage/primary-key';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { CandidateRegistry } from './candidate-registry';
import type { IndexEntryDocument, UrlTaskDocument } from './frontier-documents';
import type { FrontierStore, UrlTaskChange } from './frontier-store';
import type { FrontierTables } from './frontier-tables';
import type { LeaseBook } from './lease-book';
import { placementOf, type IndexPlacement } from './index-placement';
import { effectiveRank } from './priority-rank';
import type { RobotsPolicy } from './robots-policy';
import type { RuleBook, RuleSummary } from './rule-book';
import { dropped, parked, queuedAt } from './url-task-transitions';
import type { FrontierMutator } from './frontier-mutator';
import type { WriteBatch } from './write-batch';

export interface DomainReconcilerDependencies {
  mutator: FrontierMutator;
  tables: FrontierTables;
  store: FrontierStore;
  /** A held URL keeps its due entry while leased: the reconciler passes over it. */
  leases: LeaseBook;
  rules: RuleBook;
  robots: RobotsPolicy;
  candidates: CandidateRegistry;
  /** Resolves once every commit queued so far is written (the scans must see them). */
  settled: () => Promise<void>;
}

const PAGE_SIZE = 500;

/**
 * Applies a domain's (new) rule to the URLs already in the frontier: URLs waiting for the rule are
 * queued at their rank (or refused by robots.txt) when the verdict is csr or partial, dropped when
 * it is ssr or unknown; and an excluded domain's due queue is dropped. Work is done in pages, each
 * one mutation, so a domain with many URLs never blocks leasing for long; what a request cannot
 * finish within its budget continues in the background (the `pending` set).
 */
export class DomainReconciler {
  readonly #pending = new Set<string>();

  constructor(private readonly dependencies: DomainReconcilerDependencies) {}

  enqueue(domain: string): void {
    this.#pending.add(domain);
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /**
   * Works through pending domains until `urlBudget` URLs were handled, one page per mutation.
   * Resolves to the number of URLs handled.
   */
  async runPending(urlBudget: number, nowMs: () => number): Promise<number> {
    let handledCount = 0;
    for (const domain of [...this.#pending]) {
      while (handledCount < urlBudget) {
        const step = await this.dependencies.mutator.run(async (batch) => {
          // The scans below must see every URL admitted before: wait for earlier commits.
          await this.dependencies.settled();
          return this.#reconcilePage(batch, domain, nowMs());
        });
        handledCount += step.handledCount;
        if (step.isFinished) {
          this.#pending.delete(domain);
          break;
        }
      }
      if (handledCount >= urlBudget) break;
    }
    return handledCount;
  }

  async #reconcilePage(
    batch: WriteBatch,
    domain: string,
    nowMs: number,
  ): Promise<{ handledCount: number; isFinished: boolean }> {
    const rule = this.dependencies.rules.get(domain);
    if (rule === undefined) return { handledCount: 0, isFinished: true };
    const waiting = await this.#page(
      batch,
      this.dependencies.tables.waitingIndex,
      domain,
      'waiting',
      (task) => this.#decideWaiting(task, rule, nowMs),
    );
    if (waiting > 0) return { handledCount: waiting, isFinished: false };
    if (this.dependencies.candidates.has(domain))
      this.dependencies.candidates.stageRemoval(batch, domain);
    if (rule.isCrawlable) return { handledCount: 0, isFinished: true };
    const due = await this.#page(
      batch,
      this.dependencies.tables.dueIndex,
      domain,
      'due',
      async (task) => dropped(task, nowMs),
    );
    return { handledCount: due, isFinished: due === 0 };
  }

  async #decideWaiting(
    task: UrlTaskDocument,
    rule: RuleSummary,
    nowMs: number,
  ): Promise<UrlTaskDocument> {
    if (!rule.isCrawlable) return dropped(task, nowMs);
    if (!(await this.dependencies.robots.isAllowed(task.domain, task.url))) {
      return parked(task, 'robots_disallowed', null, nowMs);
    }
    return queuedAt(task, effectiveRank(task, rule), nowMs, rule.verifiedAt);
  }

  /**
   * One page of a domain's entries in `index`, each url_task moved on by `decide`; resolves to how
   * many entries it handled. A URL a live lease holds keeps its due entry until its lease is settled
   * (the lease book says so): it is passed over, neither moved nor taken for a stale entry.
   */
  async #page(
    batch: WriteBatch,
    index: KeyspaceTable<IndexEntryDocument>,
    domain: string,
    indexName: IndexPlacement['indexName'],
    decide: (task: UrlTaskDocument) => Promise<UrlTaskDocument>,
  ): Promise<number> {
    const { store, leases } = this.dependencies;
    const keys: PrimaryKey[] = [];
    let after: PrimaryKey | undefined;
    for (;;) {
      const page = await index.scanKeys({
        prefix: primaryKeyPrefix(domain),
        after,
        limit: PAGE_SIZE,
      });
      for (const key of page.keys) {
        if (leases.holderOf(key.parts[key.parts.length - 1]) === undefined) keys.push(key);
      }
      if (keys.length > 0 || page.nextAfter === null) break;
      after = page.nextAfter; // a page of held URLs only: look behind them
    }
    const tasks = await store.readUrlTasks(keys.map((key) => key.parts[key.parts.length - 1]));
    const changes: UrlTaskChange[] = [];
    const staleKeys: PrimaryKey[] = [];
    for (let position = 0; position < keys.length; position += 1) {
      const task = tasks[position];
      if (task === undefined || !isPlacedAt(task, indexName, keys[position])) {
        staleKeys.push(keys[position]);
        continue;
      }
      changes.push({ previous: task, next: await decide(task) });
    }
    store.stage(batch, changes);
    store.stageStaleEntries(batch, indexName, staleKeys);
    return keys.length;
  }
}

function isPlacedAt(
  task: UrlTaskDocument,
  indexName: IndexPlacement['indexName'],
  key: PrimaryKey,
): boolean {
  const placement = placementOf(task);
  return placement?.indexName === indexName && placement.key.equals(key);
}
