import { primaryKeyPrefix, type PrimaryKey } from '../../common/storage/primary-key';
import { allShardBuckets } from './domain-shard';
import type { FrontierStore, UrlTaskChange } from './frontier-store';
import type { FrontierTables } from './frontier-tables';
import { placementOf } from './index-placement';
import { effectiveRank } from './priority-rank';
import type { RuleBook } from './rule-book';
import { revisitDueMsOf, type RevisitSchedule } from './revisit-schedule';
import { dropped, queuedAt } from './url-task-transitions';
import type { WriteBatch } from './write-batch';

export interface RevisitPromoterDependencies {
  tables: FrontierTables;
  store: FrontierStore;
  rules: RuleBook;
  schedule: RevisitSchedule;
}

/**
 * Moves URLs whose time has come from url_revisit_index (re-visits of done URLs, retries after a
 * failed fetch) into their domain's due queue, re-ranked under the rule in force — or drops them if
 * their domain is now excluded. Keeping future URLs out of the due queues means a domain's head is
 * always due, so far-future re-visits never stand in front of new URLs.
 *
 * The index is ordered by due time within each shard bucket (domain-shard.ts); the promoter reads
 * only the buckets its RevisitSchedule says may hold due entries. Callers hold the lock and commit
 * the batch.
 */
export class RevisitPromoter {
  constructor(private readonly dependencies: RevisitPromoterDependencies) {}

  /** Start-up: the first entry of every bucket. */
  async load(): Promise<void> {
    for (const bucket of allShardBuckets()) {
      const page = await this.dependencies.tables.revisitIndex.scanKeys({
        prefix: primaryKeyPrefix(bucket),
        limit: 1,
      });
      const [first] = page.keys;
      if (first !== undefined) this.dependencies.schedule.lower(first);
    }
  }

  /** Promotes up to `limit` entries due by `nowMs`; resolves to how many entries it consumed. */
  async promoteDue(batch: WriteBatch, nowMs: number, limit: number): Promise<number> {
    let consumedCount = 0;
    for (const bucket of this.dependencies.schedule.bucketsDueBy(nowMs)) {
      if (consumedCount >= limit) break;
      consumedCount += await this.#promoteBucket(batch, bucket, nowMs, limit - consumedCount);
    }
    return consumedCount;
  }

  async #promoteBucket(
    batch: WriteBatch,
    bucket: string,
    nowMs: number,
    limit: number,
  ): Promise<number> {
    const { tables, store, rules, schedule } = this.dependencies;
    // One row past the limit tells when the bucket is next due.
    const { keys } = await tables.revisitIndex.scanKeys({
      prefix: primaryKeyPrefix(bucket),
      limit: limit + 1,
    });
    const dueKeys = keys.slice(0, limit).filter((key) => revisitDueMsOf(key) <= nowMs);
    const following = keys[dueKeys.length];
    schedule.forget(bucket);
    if (following !== undefined) schedule.lower(following);
    // Entries of commits not yet durable are not in the scan: remember them for the next look.
    for (const key of store.pendingRevisitEntries(bucket)) schedule.lower(key);
    if (dueKeys.length === 0) return 0;
    const tasks = await store.readUrlTasks(dueKeys.map((key) => key.parts[2]));
    const changes: UrlTaskChange[] = [];
    const staleKeys: PrimaryKey[] = [];
    dueKeys.forEach((key, index) => {
      const task = tasks[index];
      const placement = task === undefined ? undefined : placementOf(task);
      if (task === undefined || placement?.indexName !== 'revisit' || !placement.key.equals(key)) {
        staleKeys.push(key);
        return;
      }
      const rule = rules.get(task.domain);
      if (rule === undefined) return; // rules are never deleted; a due URL always had one
      changes.push({
        previous: task,
        next: rule.isCrawlable
          ? queuedAt(task, effectiveRank(task, rule), nowMs)
          : dropped(task, nowMs),
      });
    });
    store.stage(batch, changes);
    store.stageStaleEntries(batch, 'revisit', staleKeys);
    return dueKeys.length;
  }
}
