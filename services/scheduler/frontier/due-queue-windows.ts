import { PrimaryKey } from '../../common/storage/primary-key';

/** One page of a domain's due queue: its keys in order, and whether more follow them. */
export interface QueuePage {
  keys: PrimaryKey[];
  hasMore: boolean;
}

/**
 * A page read from storage with the entries staged meanwhile (not durable yet, so not in storage)
 * put in their places: all of them when the page holds the rest of the queue, else those up to its
 * last entry — the ones behind it belong to the pages that follow.
 */
export function withStagedEntries(stored: QueuePage, staged: readonly PrimaryKey[]): QueuePage {
  if (staged.length === 0 || (stored.hasMore && stored.keys.length === 0)) return stored;
  const lastStored = stored.hasMore ? stored.keys[stored.keys.length - 1].encoded : undefined;
  const merged = new Map<string, PrimaryKey>();
  for (const key of stored.keys) merged.set(key.encoded, key);
  for (const key of staged) {
    if (lastStored === undefined || key.encoded <= lastStored) merged.set(key.encoded, key);
  }
  const keys = [...merged.values()].sort((left, right) =>
    left.encoded < right.encoded ? -1 : left.encoded > right.encoded ? 1 : 0,
  );
  return { keys, hasMore: stored.hasMore };
}

/**
 * The first entries of one domain's due queue, as encoded keys; `isComplete`: they are the whole
 * queue. Strings, not PrimaryKey objects: a window lives as long as its domain has URLs, and at 1M
 * URLs there are ~400,000 entries in windows — an object and its decoded parts (~170 bytes more
 * an entry) would only add to what the garbage collector marks.
 */
interface DueWindow {
  keys: string[];
  isComplete: boolean;
}

/**
 * The first few entries of each domain's due queue (url_due_index), held in memory so that picking
 * a domain's head reads no storage: a lease looks at ~50 domains, and each look was a range read of
 * the index through LMDB and the write-behind overlay — 5.5 % of the scheduler's main thread at 1M
 * URLs (bench:frontier's profile), more than the pick's own decisions.
 *
 * A window is what a read of the queue's first entries returned (remember: the picker's reads and
 * loadDueQueueWindows), kept true by every change to the index as it is staged (added, removed —
 * FrontierStore stages every due-index write the frontier makes at run time). So it is the queue
 * as the latest decisions left it, with one difference that heals itself: an entry whose removal
 * was staged before the window was read, but not yet durable, is still in storage and so in the
 * window, until the picker finds it stale against its url_task and removes it (as it always did
 * with such entries).
 *
 * Windows are read, remembered and changed only under the frontier's mutation lock, so no read is
 * overtaken by a change it does not see.
 */
export class DueQueueWindows {
  readonly #windows = new Map<string, DueWindow>();

  /** `size`: entries a window keeps at most (a read for more is answered by storage; 0: none). */
  constructor(readonly size: number) {}

  /**
   * Up to `limit` entries after `after` (all when undefined), or undefined when the window does not
   * hold them (no window, or fewer entries than asked and more in storage).
   */
  read(domain: string, after: PrimaryKey | undefined, limit: number): QueuePage | undefined {
    const window = this.#windows.get(domain);
    if (window === undefined) return undefined;
    const { keys, isComplete } = window;
    let start = 0;
    if (after !== undefined) {
      while (start < keys.length && keys[start] <= after.encoded) start += 1;
    }
    const heldCount = keys.length - start;
    if (heldCount < limit && !isComplete) return undefined;
    const end = Math.min(keys.length, start + limit);
    const page = new Array<PrimaryKey>(end - start);
    for (let index = start; index < end; index += 1) {
      page[index - start] = PrimaryKey.fromValidEncoded(keys[index]);
    }
    return { keys: page, hasMore: heldCount > limit || !isComplete };
  }

  /** The first entries of a domain's queue as just read (`hasMore`: others follow them). */
  remember(domain: string, page: QueuePage): void {
    if (this.size === 0) return; // windows switched off
    const isComplete = !page.hasMore && page.keys.length <= this.size;
    const keys = page.keys.slice(0, this.size).map((key) => key.encoded);
    this.#windows.set(domain, { keys, isComplete });
  }

  /** A due-index entry staged for writing. */
  added(domain: string, key: PrimaryKey): void {
    const window = this.#windows.get(domain);
    if (window === undefined) return;
    const { keys } = window;
    const { encoded } = key;
    let position = keys.length;
    while (position > 0 && keys[position - 1] > encoded) position -= 1;
    if (position > 0 && keys[position - 1] === encoded) return;
    // Behind the last entry of an incomplete window: among the entries it does not hold.
    if (position === keys.length && !window.isComplete) return;
    keys.splice(position, 0, encoded);
    if (keys.length > this.size) {
      keys.pop();
      window.isComplete = false;
    }
  }

  /** A due-index entry staged for deletion. */
  removed(domain: string, key: PrimaryKey): void {
    const window = this.#windows.get(domain);
    if (window === undefined) return;
    const position = window.keys.indexOf(key.encoded);
    if (position < 0) return;
    window.keys.splice(position, 1);
    // An empty window of a longer queue says nothing: the next read goes to storage.
    if (window.keys.length === 0 && !window.isComplete) this.#windows.delete(domain);
  }

  has(domain: string): boolean {
    return this.#windows.has(domain);
  }

  /** Domains with a window (a metric). */
  get domainCount(): number {
    return this.#windows.size;
  }
}
