/** Where the index reads the url_hash of a slot it holds (the table's own hash column). */
export interface SlotHashes {
  /** The first of the slot's four hash words. */
  firstHashWordOf(slot: number): number;
  /** Whether the slot's hash is the four words at `at` in `words`. */
  hasHash(slot: number, words: Uint32Array, at: number): boolean;
}

const EMPTY = 0;

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
  static readonly #MAX_LOAD = 0.5;
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
    this.#entries = UrlSlotIndex.#tableOf(initialCapacity);
    this.#mask = this.#entries.length - 1;
  }

  /** An empty table of at least `capacity` entries (a power of two, 16 or more). */
  static #tableOf(capacity: number): Int32Array {
    return new Int32Array(2 ** Math.ceil(Math.log2(Math.max(16, capacity))));
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
    const neededCapacity = entryCount / UrlSlotIndex.#MAX_LOAD + 1;
    if (neededCapacity <= this.#mask + 1) return;
    this.#entries = UrlSlotIndex.#tableOf(neededCapacity);
    this.#mask = this.#entries.length - 1;
  }

  /** Indexes `slot`, whose hash the table already holds and no other slot has. */
  insert(slot: number): void {
    if (this.#size + 1 > (this.#mask + 1) * UrlSlotIndex.#MAX_LOAD) this.#startGrowing();
    this.#place(this.#entries, this.#mask, slot);
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

  #place(entries: Int32Array, mask: number, slot: number): void {
    let probe = this.hashes.firstHashWordOf(slot) & mask;
    while (entries[probe] !== EMPTY) probe = (probe + 1) & mask;
    entries[probe] = slot + 1;
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
      if (entry !== EMPTY) this.#place(this.#entries, this.#mask, entry - 1);
    }
    previous.nextEntry = end;
    if (end > previous.mask) this.#previous = undefined;
  }
}
