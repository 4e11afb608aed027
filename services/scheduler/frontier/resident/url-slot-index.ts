/** Where the index reads the url_hash of a slot it holds (the table's own hash column). */
export interface SlotHashes {
  /** The first of the slot's four hash words. */
  firstHashWordOf(slot: number): number;
  /** Whether the slot's hash is the four words at `at` in `words`. */
  hasHash(slot: number, words: Uint32Array, at: number): boolean;
}

const EMPTY = 0;
const MAX_LOAD = 0.5;

/** An empty table of at least `capacity` entries (a power of two, 16 or more). */
function tableOf(capacity: number): Int32Array<ArrayBuffer> {
  return new Int32Array(2 ** Math.ceil(Math.log2(Math.max(16, capacity))));
}

/** A table sized for `entryCount` entries that never grows while it takes them. */
function tableFor(entryCount: number): Int32Array<ArrayBuffer> {
  return tableOf(entryCount / MAX_LOAD + 1);
}

/** Puts `slot`, whose hash begins with `firstWord`, at the first free entry of its probe chain. */
function place(entries: Int32Array, firstWord: number, slot: number): void {
  const mask = entries.length - 1;
  let probe = firstWord & mask;
  while (entries[probe] !== EMPTY) probe = (probe + 1) & mask;
  entries[probe] = slot + 1;
}

/**
 * The entries of an index of slots 0 to n - 1, whose hashes begin with `firstWords[0 … n - 1]`:
 * what inserting them one by one into an index sized for them (reserve) makes, from the first
 * words alone — so a thread without the table can build it (url-slot-entries.ts) for adopt.
 */
export function urlSlotEntriesOf(firstWords: Uint32Array): Int32Array<ArrayBuffer> {
  const entries = tableFor(firstWords.length);
  for (let slot = 0; slot < firstWords.length; slot += 1) place(entries, firstWords[slot], slot);
  return entries;
}

/**
 * url_hash → slot of the resident url table: open addressing with linear probing on the hash's
 * first word (the hash's bits are uniform: no further mixing), each entry the slot number + 1 (0:
 * empty). The hash itself stays in the table's column, so an entry is 4 bytes and a probe compares
 * against the column.
 *
 * It grows by doubling and moves its entries into the larger table a few per insert, not all at
 * once — as KnownUrlSet does, for the same reason: rehashing 1.26M entries in one go held the
 * event loop for ~160 ms. While entries move, a lookup reads both tables (the old one is never
 * written again, so its probe chains stay intact) and new entries go to the new one. Entries are
 * never removed: a url_task is never deleted (CONTRACT.md §五).
 */
export class UrlSlotIndex {
  /**
   * Old entries moved per insert while growing: the new table (twice the size) reaches its load
   * limit after as many inserts as the old table held, and the move ends after 1/8 of that.
   */
  static readonly #MOVED_PER_INSERT = 8;

  #entries: Int32Array;
  #mask: number;
  #previous: { entries: Int32Array; mask: number; nextEntry: number } | undefined;
  #size = 0;

  constructor(
    private readonly hashes: SlotHashes,
    initialCapacity = 1 << 16,
  ) {
    this.#entries = tableOf(initialCapacity);
    this.#mask = this.#entries.length - 1;
  }

  get size(): number {
    return this.#size;
  }

  get byteCount(): number {
    return this.#entries.byteLength + (this.#previous?.entries.byteLength ?? 0);
  }

  /** The slot whose hash is the four words at `at` in `words`, or -1. */
  find(words: Uint32Array, at: number): number {
    const found = this.#findIn(this.#entries, this.#mask, words, at);
    if (found >= 0 || this.#previous === undefined) return found;
    return this.#findIn(this.#previous.entries, this.#previous.mask, words, at);
  }

  /**
   * Sizes an empty index for `entryCount` entries, so that inserting them never grows it: a table
   * read back from a snapshot indexes every slot at once, and growing from the default capacity
   * to 1M entries moved ~1M entries more, each a random write (~0.1 s of a 1M-URL start).
   */
  reserve(entryCount: number): void {
    if (this.#size !== 0) throw new RangeError('only an empty index is sized in advance');
    if (entryCount / MAX_LOAD + 1 <= this.#mask + 1) return;
    this.#entries = tableFor(entryCount);
    this.#mask = this.#entries.length - 1;
  }

  /**
   * Takes `entries` (urlSlotEntriesOf the first words of slots 0 to `entryCount` - 1) as its own:
   * an empty index of a table read back from a snapshot, built on another thread.
   */
  adopt(entries: Int32Array, entryCount: number): void {
    if (this.#size !== 0) throw new RangeError('only an empty index adopts entries');
    const capacity = entries.length;
    if ((capacity & (capacity - 1)) !== 0 || capacity < 16 || entryCount > capacity * MAX_LOAD) {
      throw new RangeError(`${capacity} entries cannot index ${entryCount} slots`);
    }
    this.#entries = entries;
    this.#mask = capacity - 1;
    this.#size = entryCount;
  }

  /** Indexes `slot`, whose hash the table already holds and no other slot has. */
  insert(slot: number): void {
    if (this.#size + 1 > (this.#mask + 1) * MAX_LOAD) this.#startGrowing();
    place(this.#entries, this.hashes.firstHashWordOf(slot), slot);
    this.#size += 1;
    this.#moveSome(UrlSlotIndex.#MOVED_PER_INSERT);
  }

  #findIn(entries: Int32Array, mask: number, words: Uint32Array, at: number): number {
    for (let probe = words[at] & mask; ; probe = (probe + 1) & mask) {
      const entry = entries[probe];
      if (entry === EMPTY) return -1;
      if (this.hashes.hasHash(entry - 1, words, at)) return entry - 1;
    }
  }

  #startGrowing(): void {
    // Cannot happen with #MOVED_PER_INSERT ≥ 2; finishing the move first keeps it correct anyway.
    this.#moveSome(Number.POSITIVE_INFINITY);
    this.#previous = { entries: this.#entries, mask: this.#mask, nextEntry: 0 };
    const capacity = (this.#mask + 1) * 2;
    this.#entries = new Int32Array(capacity);
    this.#mask = capacity - 1;
  }

  #moveSome(entryCount: number): void {
    const previous = this.#previous;
    if (previous === undefined) return;
    const end = Math.min(previous.nextEntry + entryCount, previous.mask + 1);
    for (let probe = previous.nextEntry; probe < end; probe += 1) {
      const entry = previous.entries[probe];
      if (entry !== EMPTY) place(this.#entries, this.hashes.firstHashWordOf(entry - 1), entry - 1);
    }
    previous.nextEntry = end;
    if (end > previous.mask) this.#previous = undefined;
  }
}
