import { primaryKey } from '../../common/storage/primary-key';
import { ceilingTimeTextOf, msOfTimeText, timeTextOf, type Clock } from '../sampler-clock';
import type { SampleTaskDocument } from '../storage/sampler-documents';
import type { SamplerTables } from '../storage/sampler-tables';
import { walkTable } from '../storage/table-walk';

const SCAN_PAGE = 500;

/** What changes when a task is put back in the queue. */
export type SampleTaskChange = Partial<
  Pick<
    SampleTaskDocument,
    'attempt_count' | 'undecided_sample_count' | 'sampled_at' | 'seen_url_list' | 'deferred_due_at'
  >
>;

/**
 * The durable sampling queue: one `domain_sample_task` per domain the sampler knows, ordered by
 * `sample_due_index` ({due_at}/{domain}, a pointer). The task's due_at is the truth; an index
 * entry that disagrees with its task is stale (a crash between the writes) and is dropped when a
 * scan meets it. Writes go index-first, so a task is never due without an entry that finds it.
 * "In progress" is not stored: a domain being sampled keeps its past due time, and after a crash
 * it is simply due again. Writers (`enqueue`, `reschedule`, `due`, which prunes) run under the
 * sampler's state lock, so a prune never meets a half-done reschedule.
 */
export class SampleQueue {
  #taskCount = 0;

  private constructor(
    private readonly tables: SamplerTables,
    private readonly clock: Clock,
  ) {}

  static async open(tables: SamplerTables, clock: Clock): Promise<SampleQueue> {
    const queue = new SampleQueue(tables, clock);
    await walkTable(tables.sampleTasks, () => {
      queue.#taskCount += 1;
    });
    return queue;
  }

  get taskCount(): number {
    return this.#taskCount;
  }

  get(domain: string): Promise<SampleTaskDocument | undefined> {
    return this.tables.sampleTasks.get(domain);
  }

  async getMany(domains: string[]): Promise<SampleTaskDocument[]> {
    const tasks = await this.tables.sampleTasks.getMany(domains);
    return tasks.filter((task): task is SampleTaskDocument => task !== undefined);
  }

  /**
   * Queues a newly seen domain, due now; false when the sampler already knows it. Under the state
   * lock (SamplerCore.enqueueDomain): a prune running between the index write and the task write
   * would drop the new entry.
   */
  async enqueue(domain: string, seenUrlList: readonly string[]): Promise<boolean> {
    if ((await this.tables.sampleTasks.get(domain)) !== undefined) return false;
    const now = timeTextOf(this.clock.nowMs());
    const task: SampleTaskDocument = {
      domain,
      due_at: now,
      attempt_count: 0,
      undecided_sample_count: 0,
      seen_url_list: [...seenUrlList],
      first_queued_at: now,
      sampled_at: null,
      deferred_due_at: null,
    };
    await this.tables.sampleDueIndex.put(primaryKey(task.due_at, domain), {});
    const { isSwapped } = await this.tables.sampleTasks.compareAndSwap(domain, undefined, task);
    if (isSwapped) this.#taskCount += 1;
    return isSwapped;
  }

  /** Moves a task to a new due time (never earlier than asked: rounded up to the second). */
  async reschedule(
    task: SampleTaskDocument,
    dueAtMs: number,
    change: SampleTaskChange = {},
  ): Promise<SampleTaskDocument> {
    const next: SampleTaskDocument = { ...task, ...change, due_at: ceilingTimeTextOf(dueAtMs) };
    if (next.due_at !== task.due_at) {
      await this.tables.sampleDueIndex.put(primaryKey(next.due_at, task.domain), {});
    }
    await this.tables.sampleTasks.put(task.domain, next);
    if (next.due_at !== task.due_at) {
      await this.tables.sampleDueIndex.delete(primaryKey(task.due_at, task.domain));
    }
    return next;
  }

  /**
   * A claim ended before its expiry: the due time it deferred applies again (usually "now": the
   * domain fell due while it was held).
   */
  async restoreDeferred(domain: string): Promise<void> {
    const task = await this.tables.sampleTasks.get(domain);
    if (task?.deferred_due_at == null) return;
    await this.reschedule(task, msOfTimeText(task.deferred_due_at), { deferred_due_at: null });
  }

  /**
   * Up to `limit` tasks due now, earliest first, skipping the domains in `exclude` (those in
   * progress). Stale index entries met on the way are removed.
   */
  async due(limit: number, exclude: ReadonlySet<string>): Promise<SampleTaskDocument[]> {
    const found: SampleTaskDocument[] = [];
    await this.#walkDue(true, async (task) => {
      if (!exclude.has(task.domain)) found.push(task);
      return found.length < limit;
    });
    return found;
  }

  /** Tasks due now, counted up to `cap` (the operator view). */
  async countDue(cap: number, exclude: ReadonlySet<string>): Promise<number> {
    let count = 0;
    await this.#walkDue(false, async (task) => {
      if (!exclude.has(task.domain)) count += 1;
      return count < cap;
    });
    return count;
  }

  /** The next tasks in due order, due or not (the operator view). */
  async upcoming(limit: number): Promise<SampleTaskDocument[]> {
    const page = await this.tables.sampleDueIndex.scan({ limit: Math.min(limit * 2, 10_000) });
    const tasks = await this.tables.sampleTasks.getMany(
      page.rows.map((row) => row.primaryKey.parts[1]),
    );
    return tasks
      .filter(
        (task, index): task is SampleTaskDocument =>
          task !== undefined && task.due_at === page.rows[index].primaryKey.parts[0],
      )
      .slice(0, limit);
  }

  /** Calls `visit` for each live due task in due order until it answers false. */
  async #walkDue(
    shouldPrune: boolean,
    visit: (task: SampleTaskDocument) => Promise<boolean>,
  ): Promise<void> {
    const nowMs = this.clock.nowMs();
    let after = undefined;
    for (;;) {
      const page = await this.tables.sampleDueIndex.scan({ limit: SCAN_PAGE, after });
      if (page.rows.length === 0) return;
      const dueRows = page.rows.filter((row) => msOfTimeText(row.primaryKey.parts[0]) <= nowMs);
      const tasks = await this.tables.sampleTasks.getMany(
        dueRows.map((row) => row.primaryKey.parts[1]),
      );
      for (const [index, row] of dueRows.entries()) {
        const task = tasks[index];
        if (task === undefined || task.due_at !== row.primaryKey.parts[0]) {
          if (shouldPrune) await this.tables.sampleDueIndex.delete(row.primaryKey);
          continue;
        }
        if (!(await visit(task))) return;
      }
      if (dueRows.length < page.rows.length || page.nextAfter === null) return;
      after = page.nextAfter;
    }
  }
}
