import type { FrontierStore, UrlTaskChange } from './frontier-store';
import type { FrontierTables } from './frontier-tables';
import type { PrimaryKey } from '../../common/storage/primary-key';
import { placementOf } from './index-placement';
import { effectiveRank } from './priority-rank';
import type { RuleBook } from './rule-book';
import { msOfTimeText } from './time-text';
import { dropped, queuedAt } from './url-task-transitions';
import type { WriteBatch } from './write-batch';

/**
 * Moves URLs whose time has come from url_revisit_index (re-visits of done URLs, retries after a
 * failed fetch) into their domain's due queue, re-ranked under the rule in force — or drops them if
 * their domain is now excluded. Keeping future URLs out of the due queues means a domain's head is
 * always due, so far-future re-visits never stand in front of new URLs. Callers hold the lock and
 * commit the batch.
 */
export class RevisitPromoter {
  constructor(
    private readonly tables: FrontierTables,
    private readonly store: FrontierStore,
    private readonly rules: RuleBook,
  ) {}

  /** Promotes up to `limit` entries due by `nowMs`; resolves to how many entries it consumed. */
  async promoteDue(batch: WriteBatch, nowMs: number, limit: number): Promise<number> {
    const page = await this.tables.revisitIndex.scan({ limit });
    const dueRows = page.rows.filter((row) => msOfTimeText(row.primaryKey.parts[0]) <= nowMs);
    if (dueRows.length === 0) return 0;
    const tasks = await this.store.readUrlTasks(dueRows.map((row) => row.primaryKey.parts[1]));
    const changes: UrlTaskChange[] = [];
    const staleKeys: PrimaryKey[] = [];
    dueRows.forEach((row, index) => {
      const task = tasks[index];
      const placement = task === undefined ? undefined : placementOf(task);
      if (
        task === undefined ||
        placement?.indexName !== 'revisit' ||
        !placement.key.equals(row.primaryKey)
      ) {
        staleKeys.push(row.primaryKey);
        return;
      }
      const rule = this.rules.get(task.domain);
      if (rule === undefined) return; // rules are never deleted; a due URL always had one
      changes.push({
        previous: task,
        next: rule.isCrawlable
          ? queuedAt(task, effectiveRank(task, rule), nowMs)
          : dropped(task, nowMs),
      });
    });
    this.store.stage(batch, changes);
    this.store.stageStaleEntries(batch, 'revisit', staleKeys);
    return dueRows.length;
  }
}
