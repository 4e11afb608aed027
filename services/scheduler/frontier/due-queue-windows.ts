import type { PrimaryKey } from '../../common/storage/primary-key';
import { dueIndexKey, paddedRank } from './frontier-tables';
import { msOfTimeText, timeTextOf } from './time-text';

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

/** A due-index entry as a window holds it: its rank, its due time and its url_hash. */
interface WindowEntry {
  rank: number;
  dueAtMs: number;
  urlHash: string;
}

const URL_HASH = /^[0-9a-f]{32}$/;
const URL_HASH_BYTES = 16;

/**
 * `{domain}/{priority_rank}/{due_at}/{url_hash}` as a window entry, or undefined for a key the
 * entry could not give back exactly (a rank that is not a padded whole number, a due time with
 * more than seconds, a url_hash that is not 32 lowercase hex digits): such keys are left to
 * storage. The three compare as the key's text does — the rank zero-padded to a fixed width, the
 * time of a fixed format, the hash hex of a fixed length.
 */
function entryOf(key: PrimaryKey): WindowEntry | undefined {
  const parts = key.parts;
  if (parts.length !== 4) return undefined;
  const [, rankText, dueAt, urlHash] = parts;
  const rank = Number(rankText);
  if (!Number.isSafeInteger(rank) || paddedRank(rank) !== rankText) return undefined;
  const dueAtMs = msOfTimeText(dueAt);
  if (timeTextOf(dueAtMs) !== dueAt || !URL_HASH.test(urlHash)) return undefined;
  return { rank, dueAtMs, urlHash };
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
 * The entries live outside the JavaScript heap, in typed arrays of fixed-size slots (one slot a
 * domain: ranks and due times as numbers, url_hashes as 16 bytes), and keys are built again when
 * read. Held as strings on the heap, the ~400,000 entries of a 1M-URL frontier cost more in the
 * collector's time than the reads they saved (bench:frontier: GC 0.41–0.78 s a row against 0.27).
 *
 * Windows are read, remembered and changed only under the frontier's mutation lock, so no read is
 * overtaken by a change it does not see.
 */
export class DueQueueWindows {
  readonly #slotOf = new Map<string, number>();
  readonly #freeSlots: number[] = [];
  #slotCount = 0;
  /** Per slot: entries held, and 1 when they are the whole queue. */
  #counts = new Uint8Array(0);
  #isComplete = new Uint8Array(0);
  /** Per entry (slot × size + index). */
  #ranks = new Float64Array(0);
  #dueAtMs = new Float64Array(0);
  #urlHashes = Buffer.alloc(0);
  /** One url_hash as bytes, to compare with the held ones. */
  readonly #probe = Buffer.alloc(URL_HASH_BYTES);

  /** `size`: entries a window keeps at most (a read for more is answered by storage; 0: none). */
  constructor(readonly size: number) {}

  /**
   * Up to `limit` entries after `after` (all when undefined), or undefined when the window does not
   * hold them (no window, or fewer entries than asked and more in storage).
   */
  read(domain: string, after: PrimaryKey | undefined, limit: number): QueuePage | undefined {
    const slot = this.#slotOf.get(domain);
    if (slot === undefined) return undefined;
    const count = this.#counts[slot];
    let start = 0;
    if (after !== undefined) {
      const afterEntry = entryOf(after);
      if (afterEntry === undefined) return undefined;
      while (start < count && this.#compare(slot, start, afterEntry) <= 0) start += 1;
    }
    const heldCount = count - start;
    const isComplete = this.#isComplete[slot] === 1;
    if (heldCount < limit && !isComplete) return undefined;
    const end = Math.min(count, start + limit);
    const keys = new Array<PrimaryKey>(end - start);
    for (let index = start; index < end; index += 1) {
      const at = slot * this.size + index;
      keys[index - start] = dueIndexKey(
        domain,
        this.#ranks[at],
        timeTextOf(this.#dueAtMs[at]),
        this.#urlHashes.toString('hex', at * URL_HASH_BYTES, (at + 1) * URL_HASH_BYTES),
      );
    }
    return { keys, hasMore: heldCount > limit || !isComplete };
  }

  /** The first entries of a domain's queue as just read (`hasMore`: others follow them). */
  remember(domain: string, page: QueuePage): void {
    if (this.size === 0) return; // windows switched off
    const held = page.keys.slice(0, this.size).map(entryOf);
    if (held.some((entry) => entry === undefined)) {
      this.#forget(domain);
      return;
    }
    const slot = this.#slotOf.get(domain) ?? this.#newSlot(domain);
    held.forEach((entry, index) => this.#write(slot, index, entry as WindowEntry));
    this.#counts[slot] = held.length;
    this.#isComplete[slot] = !page.hasMore && page.keys.length <= this.size ? 1 : 0;
  }

  /** A due-index entry staged for writing. */
  added(domain: string, key: PrimaryKey): void {
    const slot = this.#slotOf.get(domain);
    if (slot === undefined) return;
    const entry = entryOf(key);
    if (entry === undefined) {
      this.#forget(domain); // a key it cannot hold may sort among those it holds
      return;
    }
    const count = this.#counts[slot];
    let position = count;
    while (position > 0 && this.#compare(slot, position - 1, entry) > 0) position -= 1;
    if (position > 0 && this.#compare(slot, position - 1, entry) === 0) return;
    // Behind the last entry of an incomplete window: among the entries it does not hold.
    if (position === count && this.#isComplete[slot] === 0) return;
    if (count === this.size) {
      // Full: the last entry leaves the window (and the window no longer holds the whole queue).
      this.#isComplete[slot] = 0;
      if (position === count) return;
      this.#shift(slot, position, count - 1, 1);
    } else {
      this.#shift(slot, position, count, 1);
      this.#counts[slot] = count + 1;
    }
    this.#write(slot, position, entry);
  }

  /** A due-index entry staged for deletion. */
  removed(domain: string, key: PrimaryKey): void {
    const slot = this.#slotOf.get(domain);
    if (slot === undefined) return;
    const entry = entryOf(key);
    if (entry === undefined) return; // never held
    const count = this.#counts[slot];
    let position = 0;
    while (position < count && this.#compare(slot, position, entry) !== 0) position += 1;
    if (position === count) return;
    this.#shift(slot, position + 1, count, -1);
    this.#counts[slot] = count - 1;
    // An empty window of a longer queue says nothing: the next read goes to storage.
    if (count === 1 && this.#isComplete[slot] === 0) this.#forget(domain);
  }

  has(domain: string): boolean {
    return this.#slotOf.has(domain);
  }

  /** Domains with a window (a metric). */
  get domainCount(): number {
    return this.#slotOf.size;
  }

  /** Held entry `index` of `slot` against `entry`: negative, zero or positive, as their keys. */
  #compare(slot: number, index: number, entry: WindowEntry): number {
    const at = slot * this.size + index;
    const byRank = this.#ranks[at] - entry.rank;
    if (byRank !== 0) return byRank;
    const byDueAt = this.#dueAtMs[at] - entry.dueAtMs;
    if (byDueAt !== 0) return byDueAt;
    this.#probe.write(entry.urlHash, 0, URL_HASH_BYTES, 'hex');
    const start = at * URL_HASH_BYTES;
    return this.#urlHashes.compare(this.#probe, 0, URL_HASH_BYTES, start, start + URL_HASH_BYTES);
  }

  #write(slot: number, index: number, entry: WindowEntry): void {
    const at = slot * this.size + index;
    this.#ranks[at] = entry.rank;
    this.#dueAtMs[at] = entry.dueAtMs;
    this.#urlHashes.write(entry.urlHash, at * URL_HASH_BYTES, URL_HASH_BYTES, 'hex');
  }

  /** Moves entries [from, to) of `slot` by `by` places (±1) within the slot. */
  #shift(slot: number, from: number, to: number, by: number): void {
    if (from >= to) return;
    const base = slot * this.size;
    this.#ranks.copyWithin(base + from + by, base + from, base + to);
    this.#dueAtMs.copyWithin(base + from + by, base + from, base + to);
    this.#urlHashes.copyWithin(
      (base + from + by) * URL_HASH_BYTES,
      (base + from) * URL_HASH_BYTES,
      (base + to) * URL_HASH_BYTES,
    );
  }

  #newSlot(domain: string): number {
    let slot = this.#freeSlots.pop();
    if (slot === undefined) {
      if (this.#slotCount === this.#counts.length) this.#grow();
      slot = this.#slotCount;
      this.#slotCount += 1;
    }
    this.#slotOf.set(domain, slot);
    return slot;
  }

  #forget(domain: string): void {
    const slot = this.#slotOf.get(domain);
    if (slot === undefined) return;
    this.#slotOf.delete(domain);
    this.#counts[slot] = 0;
    this.#freeSlots.push(slot);
  }

  /** Twice the slots (at least 1,024), the held entries copied over. */
  #grow(): void {
    const slots = Math.max(1024, this.#counts.length * 2);
    const entries = slots * this.size;
    this.#counts = grown(this.#counts, new Uint8Array(slots));
    this.#isComplete = grown(this.#isComplete, new Uint8Array(slots));
    this.#ranks = grown(this.#ranks, new Float64Array(entries));
    this.#dueAtMs = grown(this.#dueAtMs, new Float64Array(entries));
    const urlHashes = Buffer.alloc(entries * URL_HASH_BYTES);
    this.#urlHashes.copy(urlHashes);
    this.#urlHashes = urlHashes;
  }
}

function grown<T extends Uint8Array | Float64Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
