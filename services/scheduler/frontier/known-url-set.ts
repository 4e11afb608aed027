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
 * It only grows: a url_task is never deleted (CONTRACT.md §五 keeps done and dropped URLs).
 */
export class KnownUrlSet {
  static readonly #WORDS_PER_SLOT = 4;
  static readonly #MAX_LOAD = 0.6;

  #slots: Uint32Array;
  #mask: number;
  #size = 0;
  /** The all-zero hash marks an empty slot, so it is remembered apart. */
  #hasZeroHash = false;

  constructor(initialCapacity = 1 << 16) {
    const capacity = 2 ** Math.ceil(Math.log2(Math.max(16, initialCapacity)));
    this.#slots = new Uint32Array(capacity * KnownUrlSet.#WORDS_PER_SLOT);
    this.#mask = capacity - 1;
  }

  get size(): number {
    return this.#size;
  }

  /** Bytes held by the table (for the start-up log line and the operator). */
  get byteCount(): number {
    return this.#slots.byteLength;
  }

  has(urlHash: string): boolean {
    const words = wordsOf(urlHash);
    if (isZero(words)) return this.#hasZeroHash;
    return this.#find(this.#slots, this.#mask, words) >= 0;
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
    const found = this.#find(this.#slots, this.#mask, words);
    if (found >= 0) return false;
    if (this.#size + 1 > (this.#mask + 1) * KnownUrlSet.#MAX_LOAD) this.#grow();
    this.#place(this.#slots, this.#mask, words);
    this.#size += 1;
    return true;
  }

  /** The slot index holding `words`, or -1 (linear probing stops at the first empty slot). */
  #find(slots: Uint32Array, mask: number, words: Words): number {
    for (let slot = words[0] & mask; ; slot = (slot + 1) & mask) {
      const at = slot * KnownUrlSet.#WORDS_PER_SLOT;
      const first = slots[at];
      if (
        first === words[0] &&
        slots[at + 1] === words[1] &&
        slots[at + 2] === words[2] &&
        slots[at + 3] === words[3]
      ) {
        return slot;
      }
      if (first === 0 && slots[at + 1] === 0 && slots[at + 2] === 0 && slots[at + 3] === 0) {
        return -1;
      }
    }
  }

  #place(slots: Uint32Array, mask: number, words: Words): void {
    for (let slot = words[0] & mask; ; slot = (slot + 1) & mask) {
      const at = slot * KnownUrlSet.#WORDS_PER_SLOT;
      if (slots[at] === 0 && slots[at + 1] === 0 && slots[at + 2] === 0 && slots[at + 3] === 0) {
        slots.set(words, at);
        return;
      }
    }
  }

  #grow(): void {
    const previous = this.#slots;
    const capacity = (this.#mask + 1) * 2;
    const slots = new Uint32Array(capacity * KnownUrlSet.#WORDS_PER_SLOT);
    const mask = capacity - 1;
    const words: Words = [0, 0, 0, 0];
    for (let at = 0; at < previous.length; at += KnownUrlSet.#WORDS_PER_SLOT) {
      words[0] = previous[at];
      words[1] = previous[at + 1];
      words[2] = previous[at + 2];
      words[3] = previous[at + 3];
      if (!isZero(words)) this.#place(slots, mask, words);
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

type Words = [number, number, number, number];

/**
 * A url_hash (32 lowercase hex characters) as four unsigned 32-bit words. Parsed by hand in one
 * pass: a regular expression and four parseInt calls cost several times more, on every link.
 */
function wordsOf(urlHash: string): Words {
  const words: Words = [0, 0, 0, 0];
  let isValid = urlHash.length === 32;
  for (let index = 0; isValid && index < 32; index += 1) {
    const code = urlHash.charCodeAt(index);
    const digit = code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 102 ? code - 87 : -1;
    if (digit < 0) isValid = false;
    const word = index >>> 3;
    words[word] = words[word] * 16 + digit;
  }
  if (!isValid) {
    throw new RangeError(`not a url_hash (32 lowercase hex characters): ${urlHash.slice(0, 40)}`);
  }
  return words;
}

function isZero(words: Words): boolean {
  return words[0] === 0 && words[1] === 0 && words[2] === 0 && words[3] === 0;
}
