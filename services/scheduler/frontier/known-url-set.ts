import { readUrlHashWords } from './url-hash-words';

/**
 * The url_hashes the frontier holds, exactly, in memory: every link of every report is checked
 * against the frontier, and most links are pages it already knows — answering them from memory
 * instead of one storage read per link is what keeps link admission cheap as the frontier grows.
 *
 * A url_hash is 16 bytes of SHA-256 (CONVENTION.md), so it is kept whole — four 32-bit words in an
 * open-addressing table with linear probing — not as a string or a truncated fingerprint: a
 * collision would silently drop a new URL as a duplicate. About 30–40 bytes per URL (16 per slot,
 * the table kept between 30 % and 60 % full): 1M URLs take ~32 MiB. The hash's own bits are
 * uniform, so its first word picks the slot without further mixing.
 *
 * It only grows: a url_task is never deleted (CONTRACT.md §五 keeps done and dropped URLs). It
 * grows by doubling, and moves its entries into the larger table a few per add, not all at once:
 * rehashing 1.26M entries in one go held the event loop for ~160 ms (2.5M: ~300 ms), which every
 * request waiting meanwhile paid in latency. While entries move, lookups read both tables (the
 * old one is never written again, so its probe chains stay intact) and new entries go to the new
 * one; the move ends well before the new table fills up (see MOVED_SLOTS_PER_ADD).
 *
 * The tables live in shared memory, so that another thread can ask them too (KnownUrlReader: the
 * link-preparation thread answers a report's known links itself). Only this thread writes.
 */
export class KnownUrlSet {
  static readonly #MAX_LOAD = 0.6;
  /**
   * Old slots moved per add while growing. The new table (twice the size) fills up again after
   * 0.6 × the old capacity more adds; moving 8 slots per add empties the old table after 1/8 of
   * its capacity, long before.
   */
  static readonly #MOVED_SLOTS_PER_ADD = 8;

  #slots: Uint32Array;
  #mask: number;
  /** The table being emptied into #slots while growing, and the next slot of it to move. */
  #previous: { slots: Uint32Array; mask: number; nextSlot: number } | undefined;
  #size = 0;
  /** The all-zero hash marks an empty slot, so it is remembered apart. */
  #hasZeroHash = false;
  readonly #tableListeners: Array<(table: KnownUrlTable) => void> = [];

  constructor(initialCapacity = 1 << 16) {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.#slots = sharedSlots(capacity);
    this.#mask = capacity - 1;
  }

  /**
   * Calls `listener` with the table being emptied (while growing) and the current one, then with
   * every table started from now on. A reader given the tables in that order answers from them
   * what this set would (see KnownUrlReader).
   */
  watchTables(listener: (table: KnownUrlTable) => void): void {
    this.#tableListeners.push(listener);
    if (this.#previous !== undefined) {
      listener({ slots: this.#previous.slots, mask: this.#previous.mask });
    }
    listener({ slots: this.#slots, mask: this.#mask });
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes held by the tables (for the start-up log line and the operator). */
  get byteCount(): number {
    return this.#slots.byteLength + (this.#previous?.slots.byteLength ?? 0);
  }

  has(urlHash: string): boolean {
    const words = wordsOf(urlHash);
    if (isZero(words)) return this.#hasZeroHash;
    return this.#isStored(words);
  }

  /** Adds `urlHash`; answers whether it was new. */
  add(urlHash: string): boolean {
    const words = wordsOf(urlHash);
    if (isZero(words)) {
      const isNew = !this.#hasZeroHash;
      this.#hasZeroHash = true;
      if (isNew) this.#size += 1;
      return isNew;
    }
    if (this.#isStored(words)) return false;
    if (this.#size + 1 > (this.#mask + 1) * KnownUrlSet.#MAX_LOAD) this.#startGrowing();
    this.#place(this.#slots, this.#mask, words);
    this.#size += 1;
    this.#moveSome(KnownUrlSet.#MOVED_SLOTS_PER_ADD);
    return true;
  }

  #isStored(words: Words): boolean {
    if (isInTable(this.#slots, this.#mask, words)) return true;
    const previous = this.#previous;
    return previous !== undefined && isInTable(previous.slots, previous.mask, words);
  }

  #place(slots: Uint32Array, mask: number, words: Words): void {
    for (let slot = words[0] & mask; ; slot = (slot + 1) & mask) {
      const at = slot * WORDS_PER_SLOT;
      if (slots[at] === 0 && slots[at + 1] === 0 && slots[at + 2] === 0 && slots[at + 3] === 0) {
        slots.set(words, at);
        return;
      }
    }
  }

  /** A table twice the size takes new entries; the current one is moved into it add by add. */
  #startGrowing(): void {
    // Cannot happen with MOVED_SLOTS_PER_ADD ≥ 2; finishing the move first keeps it correct anyway.
    this.#moveSome(Number.POSITIVE_INFINITY);
    this.#previous = { slots: this.#slots, mask: this.#mask, nextSlot: 0 };
    const capacity = (this.#mask + 1) * 2;
    this.#slots = sharedSlots(capacity);
    this.#mask = capacity - 1;
    for (const listener of this.#tableListeners) listener({ slots: this.#slots, mask: this.#mask });
  }

  /** Moves up to `slotCount` slots of the previous table into the current one. */
  #moveSome(slotCount: number): void {
    const previous = this.#previous;
    if (previous === undefined) return;
    const { slots } = previous;
    const end = Math.min(previous.nextSlot + slotCount, previous.mask + 1);
    const words = MOVED_WORDS;
    for (let slot = previous.nextSlot; slot < end; slot += 1) {
      const at = slot * WORDS_PER_SLOT;
      words[0] = slots[at];
      words[1] = slots[at + 1];
      words[2] = slots[at + 2];
      words[3] = slots[at + 3];
      // An entry is in one table only (add checks both), so moving never makes a duplicate.
      if (!isZero(words)) this.#place(this.#slots, this.#mask, words);
    }
    previous.nextSlot = end;
    if (end > previous.mask) this.#previous = undefined;
  }
}

/**
 * One table of a KnownUrlSet: `mask + 1` slots of four words, in shared memory (postMessage hands
 * another thread the same memory, not a copy).
 */
export interface KnownUrlTable {
  slots: Uint32Array;
  mask: number;
}

/**
 * Answers, on another thread, what a KnownUrlSet on its owner's thread would — or less: the tables
 * it was handed (KnownUrlSet.watchTables, in order), newest first. Every entry added before the
 * newest table was started is in the tables (an old one is never written again, and keeps what
 * moved out of it); an entry added later, or being written while it reads (a slot read half
 * written matches nothing: it reads as another hash or as empty), reads as not known. So `true` is
 * always right, and `false` means "ask the owner".
 */
export class KnownUrlReader {
  /** The two newest tables: a set empties its old table into the new one before growing again. */
  readonly #tables: KnownUrlTable[] = [];

  addTable(table: KnownUrlTable): void {
    this.#tables.unshift(table);
    this.#tables.length = Math.min(this.#tables.length, 2);
  }

  /** The tables held, in the order to hand them to another reader (addTable each). */
  tablesOldestFirst(): KnownUrlTable[] {
    return [...this.#tables].reverse();
  }

  /** True only when `urlHash` is known; false when it is not, or not known here yet. */
  isKnown(urlHash: string): boolean {
    const words = wordsOf(urlHash);
    if (isZero(words)) return false; // kept apart by the set, not in any table
    for (const { slots, mask } of this.#tables) {
      if (isInTable(slots, mask, words)) return true;
    }
    return false;
  }
}

/** A url_hash's four words, as they sit in a slot. */
type Words = Uint32Array;

const WORDS_PER_SLOT = 4;

function sharedSlots(capacity: number): Uint32Array {
  return new Uint32Array(
    new SharedArrayBuffer(capacity * WORDS_PER_SLOT * Uint32Array.BYTES_PER_ELEMENT),
  );
}

/** Whether the table holds `words` (linear probing stops at the first empty slot). */
function isInTable(slots: Uint32Array, mask: number, words: Words): boolean {
  for (let slot = words[0] & mask; ; slot = (slot + 1) & mask) {
    const at = slot * WORDS_PER_SLOT;
    const first = slots[at];
    if (
      first === words[0] &&
      slots[at + 1] === words[1] &&
      slots[at + 2] === words[2] &&
      slots[at + 3] === words[3]
    ) {
      return true;
    }
    if (first === 0 && slots[at + 1] === 0 && slots[at + 2] === 0 && slots[at + 3] === 0) {
      return false;
    }
  }
}

/** wordsOf's answer, overwritten by its next call: every use is synchronous and done before then. */
const PARSED_WORDS: Words = new Uint32Array(4);
/**
 * The slot #moveSome is moving, apart from PARSED_WORDS: add() starts growing — which moves
 * slots — between parsing its hash and placing it.
 */
const MOVED_WORDS: Words = new Uint32Array(4);

/** A url_hash's words, in PARSED_WORDS (see there). */
function wordsOf(urlHash: string): Words {
  readUrlHashWords(urlHash, PARSED_WORDS);
  return PARSED_WORDS;
}

function isZero(words: Words): boolean {
  return words[0] === 0 && words[1] === 0 && words[2] === 0 && words[3] === 0;
}
