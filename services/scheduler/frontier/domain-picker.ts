import { primaryKeyPrefix, type PrimaryKey } from '../../common/storage/primary-key';
import type { DomainBook } from './domain-book';
import type { DomainSchedule, QueueHead } from './domain-schedule';
import type { DueQueueSlots } from './due-queue-slots';
import type { UrlTaskDocument } from './frontier-documents';
import type { FrontierStore, UrlTaskChange } from './frontier-store';
import type { FrontierTables } from './frontier-tables';
import type { LeaseBook } from './lease-book';
import { placementOf } from './index-placement';
import type { RobotsPolicy } from './robots-policy';
import type { RuleSummary } from './rule-book';
import { msOfTimeText } from './time-text';
import { parked } from './url-task-transitions';

/** Entries read per look at a domain's queue: the head to take and the next one (the new head). */
const SCAN_PAGE_SIZE = 2;
/** Stale entries skipped for one task before the domain is left for the next lease. */
const MAX_ENTRIES_PER_TAKE = 64;
/**
 * Queue entries one lease may examine in all. Storage reads resolve without yielding to the event
 * loop, so a long run of entries that cannot be handed out (robots-disallowed after a new rule,
 * stale hints) must end the pick rather than hold the process; what was found is committed with
 * this lease and the next lease continues behind it.
 */
const MAX_ENTRIES_PER_PICK = 4096;
/**
 * Domains taken off the ready queue together, whose queue heads (the first page of each queue and
 * the url_task of its first free entry) are read at once: concurrently on TiKV, where each read is
 * a network round trip and a lease of 50 domains read one by one waited for 100 of them in a row.
 */
const PREFETCH_DOMAIN_COUNT = 64;

export interface PickedTask {
  task: UrlTaskDocument;
  schedule: DomainSchedule;
  rule: RuleSummary;
}

/** What one pass over the ready queue produced, to be committed by the lease. */
export interface PickOutcome {
  picked: PickedTask[];
  /** URLs found disallowed by the current robots.txt while picking. */
  parked: UrlTaskChange[];
  /** url_due_index entries whose url_task no longer matches them. */
  staleDueKeys: PrimaryKey[];
}

/** No documents read ahead (a queue read slot by slot reads its own). */
const NO_READ_TASKS: ReadonlyMap<string, UrlTaskDocument | undefined> = new Map();

/** One page of a domain's due queue (storage merged with staged entries; see #queuePage). */
interface QueuePage {
  keys: PrimaryKey[];
  hasMore: boolean;
}

/** A batch's heads as read ahead: each domain's first queue page, and the head documents by hash. */
interface PrefetchedHeads {
  pages: QueuePage[];
  tasks: ReadonlyMap<string, UrlTaskDocument | undefined>;
}

export interface DomainPickerDependencies {
  tables: FrontierTables;
  store: FrontierStore;
  /** A held URL keeps its due entry while leased: the picker passes over it. */
  leases: LeaseBook;
  /** Also where a domain's rule is looked up (DomainBook.ruleOf). */
  book: DomainBook;
  robots: RobotsPolicy;
  /** The due queues slot by slot, when url_task is held in memory (due-queue-slots.ts). */
  slots?: DueQueueSlots;
}

/** What one look at a domain's queue found: a URL to hand out, a place to resume, or nothing. */
type TakeOutcome =
  { task: UrlTaskDocument; key: PrimaryKey } | { resumeAfter: PrimaryKey } | undefined;

/** Where reading a domain's queue slot by slot stopped for the keyspace's way to go on. */
interface HandOver {
  after: PrimaryKey | undefined;
  examinedCount: number;
}

/** How long a downloader keeps a domain's robots.txt (its `downloader:robots_txt_object` cache). */
const ROBOTS_CACHE_MS = 24 * 3_600_000;

/**
 * Records that `workerId` leased from the domain now and answers how many domain slots the task
 * takes: two when that downloader had not leased from the domain within a robots.txt cache
 * lifetime — it fetches robots.txt first, and that request takes the domain's slot at the origin
 * like the page (README "What the interval spaces"), so another downloader's next page must not
 * land between them. One otherwise.
 */
function recordLeaseSlots(schedule: DomainSchedule, workerId: string, nowMs: number): number {
  schedule.workerLeasedAtMs ??= new Map();
  const lastLeasedAtMs = schedule.workerLeasedAtMs.get(workerId);
  schedule.workerLeasedAtMs.set(workerId, nowMs);
  return lastLeasedAtMs !== undefined && nowMs - lastLeasedAtMs < ROBOTS_CACHE_MS ? 1 : 2;
}

/**
 * Chooses the URLs of one lease: walks the ready queue band by band (priority_rank first), takes
 * the head URL of each available domain — one per domain per turn, so domains take turns — and
 * moves the domain's next allowed dequeue by its rule's min_interval_ms. A domain is put back with
 * its new available time; with min_interval_ms 0 and a free in-flight slot it may come round again
 * in the same lease, behind every domain that waited longer.
 *
 * Index entries are hints: each is checked against its url_task before it is handed out.
 */
export class DomainPicker {
  constructor(private readonly dependencies: DomainPickerDependencies) {}

  async pick(taskCount: number, nowMs: number, workerId: string): Promise<PickOutcome> {
    const outcome: PickOutcome = { picked: [], parked: [], staleDueKeys: [] };
    const lastTakenKeys = new Map<DomainSchedule, PrimaryKey>();
    const budget = { remainingCount: MAX_ENTRIES_PER_PICK };
    const isDone = () => outcome.picked.length >= taskCount || budget.remainingCount <= 0;
    for (const rank of this.dependencies.book.ready.ranks()) {
      while (!isDone()) {
        const batch = this.#popAvailable(rank, nowMs, taskCount - outcome.picked.length);
        if (batch.length === 0) break;
        // Read ahead only for the keyspace's way: slot by slot, a queue is read when it is taken.
        const heads =
          this.dependencies.slots === undefined
            ? await this.#prefetchHeads(batch, lastTakenKeys)
            : undefined;
        for (let index = 0; index < batch.length; index += 1) {
          const { schedule, rule } = batch[index];
          // Once the lease is full, the rest of the batch goes back into the queue unchanged.
          if (!isDone()) {
            const taken = await this.#takeHead(
              schedule,
              rule,
              lastTakenKeys.get(schedule),
              outcome,
              nowMs,
              budget,
              heads?.pages[index],
              heads?.tasks,
            );
            if (taken !== undefined && 'resumeAfter' in taken) {
              // Gave up on a run of entries it could not hand out: look further along next time.
              lastTakenKeys.set(schedule, taken.resumeAfter);
            } else if (taken !== undefined) {
              outcome.picked.push({ task: taken.task, schedule, rule });
              lastTakenKeys.set(schedule, taken.key);
              schedule.pendingLeaseCount += 1;
              schedule.nextDequeueAtMs =
                nowMs + recordLeaseSlots(schedule, workerId, nowMs) * rule.minIntervalMs;
              schedule.lastDequeueAtMs = nowMs;
              this.dependencies.book.markRuntimeChanged(schedule);
            }
          }
          this.dependencies.book.touch(schedule);
        }
      }
      if (isDone()) break;
    }
    return outcome;
  }

  /**
   * Up to `limit` crawlable domains of band `rank` available at `nowMs`, in the order they became
   * available (each turn of a domain is one task at most, so more would not be used). A domain put
   * back meanwhile (min_interval_ms 0) comes round again in a later batch, behind those taken now.
   */
  #popAvailable(
    rank: number,
    nowMs: number,
    limit: number,
  ): Array<{ schedule: DomainSchedule; rule: RuleSummary }> {
    const batch: Array<{ schedule: DomainSchedule; rule: RuleSummary }> = [];
    while (batch.length < Math.min(limit, PREFETCH_DOMAIN_COUNT)) {
      const schedule = this.dependencies.book.ready.popAvailable(rank, nowMs);
      if (schedule === undefined) break;
      const rule = this.dependencies.book.ruleOf(schedule);
      if (rule === undefined || !rule.isCrawlable) {
        this.dependencies.book.touch(schedule);
        continue;
      }
      batch.push({ schedule, rule });
    }
    return batch;
  }

  /**
   * The first queue page of every domain of a batch, and the url_task of each page's first entry
   * no live lease holds (usually the one handed out), read together. Nothing but this pick changes
   * these queues until it ends (the frontier lock), so what is read here stays valid while the
   * batch is worked through; #takeHead reads further on its own when it needs to.
   */
  async #prefetchHeads(
    batch: ReadonlyArray<{ schedule: DomainSchedule }>,
    lastTakenKeys: ReadonlyMap<DomainSchedule, PrimaryKey>,
  ): Promise<PrefetchedHeads> {
    const pages = await Promise.all(
      batch.map(({ schedule }) =>
        this.#queuePage(schedule.domain, lastTakenKeys.get(schedule), SCAN_PAGE_SIZE),
      ),
    );
    const { leases, store } = this.dependencies;
    const headHashes = pages.flatMap((page) => {
      const free = page.keys.find((key) => leases.holderOf(urlHashOfDueKey(key)) === undefined);
      return free === undefined ? [] : [urlHashOfDueKey(free)];
    });
    const documents = await store.readUrlTasks(headHashes);
    return {
      pages,
      tasks: new Map(headHashes.map((urlHash, index) => [urlHash, documents[index]])),
    };
  }

  /** Ends a lease (committed or not): picked tasks now count through their url_task state. */
  release(outcome: PickOutcome): void {
    for (const { schedule } of outcome.picked) schedule.pendingLeaseCount = 0;
    for (const { schedule } of outcome.picked) this.dependencies.book.touch(schedule);
  }

  async #takeHead(
    schedule: DomainSchedule,
    rule: RuleSummary,
    takenBefore: PrimaryKey | undefined,
    outcome: PickOutcome,
    nowMs: number,
    budget: { remainingCount: number },
    firstPage: QueuePage | undefined,
    readTasks: ReadonlyMap<string, UrlTaskDocument | undefined> = NO_READ_TASKS,
  ): Promise<TakeOutcome> {
    let after = takenBefore;
    let examinedCount = 0;
    const { slots, store } = this.dependencies;
    if (
      slots !== undefined &&
      after === undefined &&
      !store.hasPendingDueEntries(schedule.domain)
    ) {
      const taken = this.#takeFromSlots(slots, schedule, rule, budget);
      if (!('examinedCount' in taken)) return taken.outcome;
      ({ after, examinedCount } = taken);
    }
    let readAhead: QueuePage | undefined = firstPage;
    while (examinedCount < MAX_ENTRIES_PER_TAKE && budget.remainingCount > 0) {
      const page = readAhead ?? (await this.#queuePage(schedule.domain, after, SCAN_PAGE_SIZE));
      readAhead = undefined;
      for (let index = 0; index < page.keys.length; index += 1) {
        examinedCount += 1;
        budget.remainingCount -= 1;
        const key = page.keys[index];
        const urlHash = urlHashOfDueKey(key);
        if (this.dependencies.leases.holderOf(urlHash) !== undefined) {
          after = key; // leased: its entry stays until its lease is settled
          continue;
        }
        // Usually read ahead with the batch; otherwise one document at a time (the first entry is
        // usually valid, and the next is only a head).
        const task = readTasks.has(urlHash)
          ? readTasks.get(urlHash)
          : (await this.dependencies.store.readUrlTasks([urlHash]))[0];
        const placement = task === undefined ? undefined : placementOf(task);
        if (task === undefined || placement?.indexName !== 'due' || !placement.key.equals(key)) {
          outcome.staleDueKeys.push(key);
          after = key;
          continue;
        }
        // Allowed when queued under this very rule: robots.txt is parsed only after a new rule.
        if (
          task.robots_rule_verified_at !== rule.verifiedAt &&
          !(await this.dependencies.robots.isAllowed(schedule.domain, task.url))
        ) {
          outcome.parked.push({
            previous: task,
            next: parked(task, 'robots_disallowed', null, nowMs),
          });
          after = key;
          continue;
        }
        const following =
          page.keys[index + 1] ??
          (page.hasMore ? (await this.#queuePage(schedule.domain, key, 1)).keys[0] : undefined);
        schedule.head = following === undefined ? null : headOfDueKey(following);
        return { task, key };
      }
      if (!page.hasMore) {
        schedule.head = null;
        return undefined;
      }
      after = page.keys[page.keys.length - 1];
    }
    // Many stale entries in a row (they are deleted or parked with this lease); keep the domain
    // served, from behind them.
    schedule.head = after === undefined ? null : headOfDueKey(after);
    return after === undefined ? undefined : { resumeAfter: after };
  }

  /**
   * #takeHead on a queue read slot by slot (DueQueueSlots): the same rules — URLs live leases hold
   * are passed over, the head after the one taken becomes the domain's head, the take's and the
   * pick's budgets are checked before every SCAN_PAGE_SIZE entries, as that way reads its pages —
   * without an entry's key or a check of it against its document (a slot is both). One walk of
   * the domain's heap, synchronous, so the order it visits stays the store's while it is used.
   * Hands the rest of the queue over to the keyspace's way, after the last URL examined, where
   * that way's rules are needed: a URL with a change not yet durable, one whose robots.txt verdict
   * must be read again (a newer rule), the take's or the pick's budget spent.
   */
  #takeFromSlots(
    slots: DueQueueSlots,
    schedule: DomainSchedule,
    rule: RuleSummary,
    budget: { remainingCount: number },
  ): { outcome: TakeOutcome } | HandOver {
    const { leases, store } = this.dependencies;
    let visitedCount = 0;
    let examinedCount = 0;
    let lastExamined = -1;
    let isHandedOver = false;
    let taken: { slot: number; task: UrlTaskDocument } | undefined;
    let following = -1;
    slots.walk(schedule.domain, (slot) => {
      if (taken !== undefined) {
        following = slot;
        return false;
      }
      if (
        visitedCount % SCAN_PAGE_SIZE === 0 &&
        (examinedCount >= MAX_ENTRIES_PER_TAKE || budget.remainingCount <= 0)
      ) {
        isHandedOver = true;
        return false;
      }
      const urlHash = slots.urlHashOf(slot);
      isHandedOver = store.hasPendingTask(urlHash);
      if (isHandedOver) return false;
      visitedCount += 1;
      if (leases.holderOf(urlHash) !== undefined) {
        // Leased: its entry stays until its lease is settled.
        examinedCount += 1;
        budget.remainingCount -= 1;
        lastExamined = slot;
        return true;
      }
      const task = slots.taskOf(slot);
      // A newer rule: not counted here, the keyspace's way examines it again.
      isHandedOver = task.robots_rule_verified_at !== rule.verifiedAt;
      if (isHandedOver) return false;
      examinedCount += 1;
      budget.remainingCount -= 1;
      taken = { slot, task };
      return true; // on to the next URL: the domain's new head
    });
    if (isHandedOver) {
      return {
        after: lastExamined < 0 ? undefined : slots.keyOf(lastExamined),
        examinedCount,
      };
    }
    schedule.head = taken === undefined || following < 0 ? null : slots.headOf(following);
    return {
      outcome: taken === undefined ? undefined : { task: taken.task, key: slots.keyOf(taken.slot) },
    };
  }

  /**
   * The next `limit` entries of a domain's queue after `after`: storage merged with entries staged
   * by mutations whose batches are not durable yet. Storage's page is complete only up to its last
   * key, so pending entries beyond it wait for the next page.
   */
  async #queuePage(
    domain: string,
    after: PrimaryKey | undefined,
    limit: number,
  ): Promise<QueuePage> {
    const page = await this.dependencies.tables.dueIndex.scanKeys({
      prefix: primaryKeyPrefix(domain),
      after,
      limit,
    });
    const stored = page.keys;
    const pending = this.dependencies.store
      .pendingDueEntries(domain)
      .filter((key) => after === undefined || key.encoded > after.encoded);
    if (pending.length === 0) return { keys: stored, hasMore: page.nextAfter !== null };
    const lastStored = page.nextAfter === null ? undefined : stored[stored.length - 1].encoded;
    const merged = new Map<string, PrimaryKey>();
    for (const key of [...stored, ...pending]) {
      if (lastStored === undefined || key.encoded <= lastStored) merged.set(key.encoded, key);
    }
    const keys = [...merged.values()].sort((left, right) =>
      left.encoded < right.encoded ? -1 : left.encoded > right.encoded ? 1 : 0,
    );
    return {
      keys: keys.slice(0, limit),
      hasMore: keys.length > limit || page.nextAfter !== null,
    };
  }
}

/** url_due_index keys are {domain}/{priority_rank}/{due_at}/{url_hash}. */
function urlHashOfDueKey(key: PrimaryKey): string {
  return key.parts[3];
}

function headOfDueKey(key: PrimaryKey): QueueHead {
  return { rank: Number(key.parts[1]), dueAtMs: msOfTimeText(key.parts[2]) };
}
