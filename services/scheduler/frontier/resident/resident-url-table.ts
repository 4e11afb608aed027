import type { FailReason, UrlState } from '../wire-types';
import type { ParkReason, UrlTaskDocument } from '../frontier-documents';
import { exactMsOfTimeText, timeTextOf } from '../time-text';
import { hexOfWords, readHexWords, readUrlHashWords } from '../url-hash-words';
import { StringCodes } from './string-codes';
import { TextArena } from './text-arena';
import { UrlSlotIndex, type SlotHashes } from './url-slot-index';

/*
 * Column layout. A slot's fields sit in chunks of CHUNK_SLOTS slots (growing the table adds a chunk
 * and copies nothing), each field in a typed array of its kind, a slot's numbers side by side.
 */
const CHUNK_BITS = 16;
const CHUNK_SLOTS = 1 << CHUNK_BITS;
const SLOT_MASK = CHUNK_SLOTS - 1;

/** Numbers of a slot (null: NaN; times: Unix ms of their canonical text). */
const PRIORITY_RANK = 0;
const SEED_PRIORITY_RANK = 1;
const PRIORITY_RANK_OFFSET = 2;
const DUE_AT = 3;
const ATTEMPT_COUNT = 4;
const LEASE_EXPIRY_COUNT = 5;
const LAST_MODIFIED_AT = 6;
const FETCHED_AT = 7;
const REVISIT_INTERVAL_SECONDS = 8;
const DISCOVERED_AT = 9;
const UPDATED_AT = 10;
const ROBOTS_RULE_VERIFIED_AT = 11;
const LAST_RENDERED_AT = 12;
const NUMBER_COUNT = 13;

/** Byte codes of a slot (StringCodes; 0: null). */
const URL_STATE = 0;
const FAIL_REASON = 1;
const PARK_REASON = 2;
const FLAGS = 3;
const CODE_COUNT = 4;
const IS_IN_DUE_INDEX_FLAG = 1;

/** Texts of a slot in the arena. An id of its usual form lives in the id words instead. */
const URL_TEXT = 0;
const ETAG_TEXT = 1;
const APPLIED_LEASE_ID_TEXT = 2;
const OBJECT_ID_TEXT = 3;
const TEXT_COUNT = 4;
const NULL_TEXT = -1;
const IN_ID_WORDS = -2;

/** Id words of a slot: applied_lease_id (`l-` + 16 hex, CONTRACT.md §八), object_id (32 hex). */
const LEASE_ID_WORDS = 0;
const LEASE_ID_WORD_COUNT = 2;
const LEASE_ID_PREFIX = 'l-';
const OBJECT_ID_WORDS = 2;
const OBJECT_ID_WORD_COUNT = 4;
const ID_WORD_COUNT = 6;

class SlotChunk {
  readonly hashWords: Uint32Array;
  readonly domains: Int32Array;
  readonly numbers: Float64Array;
  readonly codes: Uint8Array;
  readonly idWords: Uint32Array;
  readonly textAt: Float64Array;
  readonly textByteLengths: Int32Array;

  /** `slotCount` below CHUNK_SLOTS only to read the columns' layout (COLUMN_BYTES_PER_SLOT). */
  constructor(slotCount = CHUNK_SLOTS) {
    this.hashWords = new Uint32Array(slotCount * 4);
    this.domains = new Int32Array(slotCount);
    this.numbers = new Float64Array(slotCount * NUMBER_COUNT);
    this.codes = new Uint8Array(slotCount * CODE_COUNT);
    this.idWords = new Uint32Array(slotCount * ID_WORD_COUNT);
    this.textAt = new Float64Array(slotCount * TEXT_COUNT);
    this.textByteLengths = new Int32Array(slotCount * TEXT_COUNT);
  }

  /** Bytes the chunk's columns take. */
  get byteCount(): number {
    return this.columns().reduce((sum, { values }) => sum + values.byteLength, 0);
  }

  /** The columns, in the order a snapshot writes them, with each one's elements per slot. */
  columns(): Array<{
    values: Uint32Array | Int32Array | Float64Array | Uint8Array;
    width: number;
  }> {
    return [
      { values: this.hashWords, width: 4 },
      { values: this.domains, width: 1 },
      { values: this.numbers, width: NUMBER_COUNT },
      { values: this.codes, width: CODE_COUNT },
      { values: this.idWords, width: ID_WORD_COUNT },
      { values: this.textAt, width: TEXT_COUNT },
      { values: this.textByteLengths, width: TEXT_COUNT },
    ];
  }
}

/**
 * Each column's bytes per slot, in the order a snapshot writes them — read off a chunk of one slot:
 * a slice's expected sizes are checked twice per slice read back, and a whole chunk (15 MB zeroed)
 * made for each check cost a 1M-URL start-up ~0.2 s and its collections.
 */
const COLUMN_BYTES_PER_SLOT = new SlotChunk(1)
  .columns()
  .map(({ values, width }) => width * values.BYTES_PER_ELEMENT);

/**
 * A copy of slots [firstSlot, firstSlot + slotCount) as a snapshot keeps them: each column's bytes
 * for those slots (typed arrays in the machine's byte order), and their text gathered into one
 * buffer, the copied text references rewritten as offsets into it. A copy, not a view: the table
 * goes on changing while a snapshot writes its slices.
 */
export interface ResidentSlice {
  firstSlot: number;
  slotCount: number;
  columns: Uint8Array[];
  text: Buffer;
}

/** The strings behind a table's codes, which a snapshot writes after its last slice. */
export interface ResidentCodeLists {
  domainList: string[];
  urlStateList: string[];
  reasonList: string[];
}

/** A document the table cannot hold exactly (a bad url_hash, a time not in canonical form). */
export class ResidentValueError extends RangeError {}

/** A document ResidentUrlTable.check accepted, with what a put reads from it. */
export interface CheckedUrlTask {
  task: UrlTaskDocument;
  /**
   * The url_hash's four words as plain numbers: a copy of the lookup words made with
   * Uint32Array.slice cost a typed array and its buffer for every row written.
   */
  hashWords: readonly number[];
  /**
   * A plain array, not a Float64Array: a typed array of 13 doubles is past V8's size for keeping
   * its bytes on the heap, and one allocated per row written cost a native allocation each.
   */
  numbers: readonly number[];
}

export interface ResidentUrlTableOptions {
  /** Released text bytes the arena may hold before it is compacted (and at least its live bytes). */
  minGarbageByteCount?: number;
}

/**
 * The frontier's url_task documents held in memory outside the JavaScript heap
 * (docs/resident-frontier.md, step 1): one slot per URL, its fields in typed-array columns — the
 * url_hash as four words, numbers and times as doubles, enums and the domain as codes, ids of their
 * usual form as words, other text in an arena — and a url_hash index over the slots. A document is
 * materialized from its slot when read (a fresh object the caller owns: young-generation garbage,
 * not a million long-lived objects) and written back field by field.
 *
 * About 200 bytes per URL plus its text. Slots are never freed: a url_task is never deleted
 * (CONTRACT.md §五). What the table answers is exactly what was put, field by field: it refuses —
 * ResidentValueError, before changing anything — a document it could not give back as it came.
 */
export class ResidentUrlTable implements SlotHashes {
  readonly #chunks: SlotChunk[] = [];
  #size = 0;
  readonly #index = new UrlSlotIndex(this);
  #domains = new StringCodes(0x7fff_ffff);
  #states = new StringCodes(0xff);
  #reasons = new StringCodes(0xff);
  #arena = new TextArena();
  readonly #minGarbageByteCount: number;
  /** A url_hash's words while it is looked up or put (every use is synchronous). */
  readonly #lookupWords = new Uint32Array(4);
  readonly #putNumbers = new Float64Array(NUMBER_COUNT);

  constructor(options: ResidentUrlTableOptions = {}) {
    this.#minGarbageByteCount = options.minGarbageByteCount ?? 64 << 20;
  }

  /** URLs held. */
  get size(): number {
    return this.#size;
  }

  /** Bytes of memory the columns, the index and the text take (for logs and the operator). */
  get byteCount(): number {
    return (
      this.#chunks.reduce((sum, chunk) => sum + chunk.byteCount, 0) +
      this.#index.byteCount +
      this.#arena.byteCount
    );
  }

  /** Bytes of replaced text the arena still holds (compacted once it outweighs the live text). */
  get wastedTextByteCount(): number {
    return this.#arena.garbageByteCount;
  }

  /** Bytes of the text the slots refer to. */
  get liveTextByteCount(): number {
    return this.#arena.liveByteCount;
  }

  /** Slots a slice of `firstSlot` may hold: it stays inside one chunk. */
  static sliceSlotLimit(firstSlot: number): number {
    return CHUNK_SLOTS - (firstSlot & SLOT_MASK);
  }

  /** Bytes of each column of a slice of `slotCount` slots, in the order slices hold them. */
  static sliceColumnByteCounts(slotCount: number): number[] {
    return COLUMN_BYTES_PER_SLOT.map((bytesPerSlot) => slotCount * bytesPerSlot);
  }

  /**
   * A copy of up to `maxSlotCount` slots from `firstSlot` (within one chunk: see sliceSlotLimit),
   * taken now; later puts change the table, not the slice.
   */
  slice(firstSlot: number, maxSlotCount: number): ResidentSlice {
    const slotCount = Math.min(
      maxSlotCount,
      ResidentUrlTable.sliceSlotLimit(firstSlot),
      this.#size - firstSlot,
    );
    if (!(firstSlot >= 0 && slotCount > 0)) throw new RangeError(`no slots from ${firstSlot}`);
    const chunk = this.#chunks[firstSlot >>> CHUNK_BITS];
    const at = firstSlot & SLOT_MASK;
    const columns = chunk.columns().map(({ values, width }) => {
      const start = values.byteOffset + at * width * values.BYTES_PER_ELEMENT;
      return new Uint8Array(
        values.buffer.slice(start, start + slotCount * width * values.BYTES_PER_ELEMENT),
      );
    });
    // The text: gathered, and the copied references pointed into it.
    const layout = chunk.columns();
    const textAt = new Float64Array(
      columns[layout.findIndex(({ values }) => values === chunk.textAt)].buffer,
    );
    const lengths = new Int32Array(
      columns[layout.findIndex(({ values }) => values === chunk.textByteLengths)].buffer,
    );
    let textByteCount = 0;
    for (const length of lengths) if (length > 0) textByteCount += length;
    const text = Buffer.allocUnsafe(textByteCount);
    let offset = 0;
    for (let t = 0; t < lengths.length; t += 1) {
      if (lengths[t] < 0) continue;
      this.#arena.copyTo(textAt[t], lengths[t], text, offset);
      textAt[t] = offset;
      offset += lengths[t];
    }
    return { firstSlot, slotCount, columns, text };
  }

  /** The strings behind the codes so far (codes only grow: these cover every slice taken before). */
  codeLists(): ResidentCodeLists {
    return {
      domainList: this.#domains.strings(),
      urlStateList: this.#states.strings(),
      reasonList: this.#reasons.strings(),
    };
  }

  /**
   * A table of the slices a snapshot wrote (every slot once, in order from 0) and the code lists it
   * wrote after them. Refuses — ResidentValueError — slices that do not fit together.
   */
  static fromSlices(
    slices: Iterable<ResidentSlice>,
    codeLists: ResidentCodeLists,
    options: ResidentUrlTableOptions = {},
  ): ResidentUrlTable {
    const table = ResidentUrlTable.fromSlicesUnindexed(slices, codeLists, options);
    table.#index.reserve(table.#size);
    for (let slot = 0; slot < table.#size; slot += 1) table.#index.insert(slot);
    return table;
  }

  /**
   * fromSlices without its url_hash index, which adoptIndexEntries gives it — built meanwhile on
   * another thread from firstHashWords (url-slot-entries.ts). Until then the table finds no
   * url_hash: it is not to be used but to build the store's other indexes, which read slots.
   */
  static fromSlicesUnindexed(
    slices: Iterable<ResidentSlice>,
    codeLists: ResidentCodeLists,
    options: ResidentUrlTableOptions = {},
  ): ResidentUrlTable {
    const table = new ResidentUrlTable(options);
    table.#domains = StringCodes.fromStrings(0x7fff_ffff, codeLists.domainList);
    table.#states = StringCodes.fromStrings(0xff, codeLists.urlStateList);
    table.#reasons = StringCodes.fromStrings(0xff, codeLists.reasonList);
    for (const slice of slices) table.#loadSlice(slice);
    return table;
  }

  /** The first url_hash word of every slot, in slot order: what urlSlotEntriesOf indexes. */
  firstHashWords(): Uint32Array {
    const words = new Uint32Array(this.#size);
    for (let slot = 0; slot < this.#size; slot += 1) words[slot] = this.firstHashWordOf(slot);
    return words;
  }

  /** Gives a table of fromSlicesUnindexed its url_hash index: urlSlotEntriesOf(firstHashWords). */
  adoptIndexEntries(entries: Int32Array): void {
    this.#index.adopt(entries, this.#size);
  }

  #loadSlice({ firstSlot, slotCount, columns, text }: ResidentSlice): void {
    const expected = ResidentUrlTable.sliceColumnByteCounts(slotCount);
    if (
      firstSlot !== this.#size ||
      slotCount > ResidentUrlTable.sliceSlotLimit(firstSlot) ||
      columns.length !== expected.length ||
      columns.some((column, index) => column.byteLength !== expected[index])
    ) {
      throw new ResidentValueError(
        `a slice of ${slotCount} slots from slot ${firstSlot} does not follow slot ${this.#size - 1}`,
      );
    }
    if (firstSlot >>> CHUNK_BITS >= this.#chunks.length) this.#chunks.push(new SlotChunk());
    const chunk = this.#chunks[firstSlot >>> CHUNK_BITS];
    const at = firstSlot & SLOT_MASK;
    chunk.columns().forEach(({ values, width }, index) => {
      const start = values.byteOffset + at * width * values.BYTES_PER_ELEMENT;
      new Uint8Array(values.buffer, start, expected[index]).set(columns[index]);
    });
    // Text references are offsets into the slice's text, which the arena takes whole and in one
    // piece (a chunk never splits an append): each becomes the text's start plus its offset.
    const t0 = at * TEXT_COUNT;
    for (let t = t0; t < t0 + slotCount * TEXT_COUNT; t += 1) {
      const length = chunk.textByteLengths[t];
      if (length >= 0 && !(chunk.textAt[t] >= 0 && chunk.textAt[t] + length <= text.length)) {
        throw new ResidentValueError(`a slice's text reference runs past its text`);
      }
    }
    const textStart = this.#arena.appendBytes(text, 0, text.length);
    for (let t = t0; t < t0 + slotCount * TEXT_COUNT; t += 1) {
      if (chunk.textByteLengths[t] >= 0) chunk.textAt[t] += textStart;
    }
    this.#size = firstSlot + slotCount;
  }

  /** The slot of `urlHash`, or -1 when the table does not hold it. */
  slotOf(urlHash: string): number {
    try {
      readUrlHashWords(urlHash, this.#lookupWords);
    } catch {
      return -1; // not a url_hash: no URL has it
    }
    return this.#index.find(this.#lookupWords, 0);
  }

  /** The document of `urlHash`, or undefined. */
  get(urlHash: string): UrlTaskDocument | undefined {
    const slot = this.slotOf(urlHash);
    return slot < 0 ? undefined : this.read(slot);
  }

  /** The document held in `slot` (a slot slotOf or put answered), as a fresh object. */
  read(slot: number): UrlTaskDocument {
    const chunk = this.#chunkOf(slot);
    const at = slot & SLOT_MASK;
    const numbers = chunk.numbers;
    const n = at * NUMBER_COUNT;
    const c = at * CODE_COUNT;
    return {
      url: this.#textOf(chunk, at, URL_TEXT) as string,
      url_hash: hexOfWords(chunk.hashWords, at * 4, 4),
      domain: this.#domains.textOf(chunk.domains[at]) as string,
      url_state: this.#states.textOf(chunk.codes[c + URL_STATE]) as UrlState,
      priority_rank: nullableNumber(numbers[n + PRIORITY_RANK]),
      seed_priority_rank: nullableNumber(numbers[n + SEED_PRIORITY_RANK]),
      priority_rank_offset: numbers[n + PRIORITY_RANK_OFFSET],
      due_at: timeTextOf(numbers[n + DUE_AT]),
      is_in_due_index: (chunk.codes[c + FLAGS] & IS_IN_DUE_INDEX_FLAG) !== 0,
      applied_lease_id: this.#idOf(chunk, at, APPLIED_LEASE_ID_TEXT),
      attempt_count: numbers[n + ATTEMPT_COUNT],
      lease_expiry_count: numbers[n + LEASE_EXPIRY_COUNT],
      fail_reason: this.#reasons.textOf(chunk.codes[c + FAIL_REASON]) as FailReason | null,
      park_reason: this.#reasons.textOf(chunk.codes[c + PARK_REASON]) as ParkReason | null,
      object_id: this.#idOf(chunk, at, OBJECT_ID_TEXT),
      etag: this.#textOf(chunk, at, ETAG_TEXT),
      last_modified_at: nullableTime(numbers[n + LAST_MODIFIED_AT]),
      fetched_at: nullableTime(numbers[n + FETCHED_AT]),
      revisit_interval_seconds: nullableNumber(numbers[n + REVISIT_INTERVAL_SECONDS]),
      discovered_at: timeTextOf(numbers[n + DISCOVERED_AT]),
      updated_at: timeTextOf(numbers[n + UPDATED_AT]),
      robots_rule_verified_at: nullableTime(numbers[n + ROBOTS_RULE_VERIFIED_AT]),
      last_rendered_at: nullableTime(numbers[n + LAST_RENDERED_AT]),
    };
  }

  /**
   * Holds `task` — in a new slot, or over the one its url_hash has — and answers its slot. A slot
   * keeps the url it was first put with: a url_hash names one URL. `knownSlot`: what slotOf
   * answered for the url_hash just before (-1: none), when the caller had to look it up anyway.
   */
  put(task: UrlTaskDocument, knownSlot?: number): number {
    // Everything that can refuse the document is checked before the slot changes.
    const numbers = this.#checked(task);
    return this.#putChecked(task, this.#lookupWords, numbers, knownSlot);
  }

  /**
   * Checks `task` as put would, changing nothing, and answers what put reads from it — its
   * url_hash's words and its numbers — for putChecked: a caller that checks a document when it is
   * written and puts it later (a journalled row) reads it once. ResidentValueError when refused.
   */
  check(task: UrlTaskDocument): CheckedUrlTask {
    const numbers = this.#checked(task);
    const copied = new Array<number>(NUMBER_COUNT);
    for (let index = 0; index < NUMBER_COUNT; index += 1) copied[index] = numbers[index];
    const words = this.#lookupWords;
    return { task, hashWords: [words[0], words[1], words[2], words[3]], numbers: copied };
  }

  /** The slot of the URL whose url_hash has these words (CheckedUrlTask's), or -1. */
  slotOfWords(hashWords: readonly number[]): number {
    return this.#index.find(this.#intoLookupWords(hashWords), 0);
  }

  /** put, of a document check() answered for. */
  putChecked({ task, hashWords, numbers }: CheckedUrlTask, knownSlot?: number): number {
    return this.#putChecked(task, this.#intoLookupWords(hashWords), numbers, knownSlot);
  }

  #intoLookupWords(hashWords: readonly number[]): Uint32Array {
    const words = this.#lookupWords;
    words[0] = hashWords[0];
    words[1] = hashWords[1];
    words[2] = hashWords[2];
    words[3] = hashWords[3];
    return words;
  }

  /** Whether `checked` keeps the priority_rank and due_at the URL in `slot` has (its order). */
  keepsOrderFields(slot: number, { numbers }: CheckedUrlTask): boolean {
    const at = (slot & SLOT_MASK) * NUMBER_COUNT;
    const stored = this.#chunkOf(slot).numbers;
    return (
      Object.is(stored[at + PRIORITY_RANK], numbers[PRIORITY_RANK]) &&
      stored[at + DUE_AT] === numbers[DUE_AT]
    );
  }

  #putChecked(
    task: UrlTaskDocument,
    hashWords: Uint32Array,
    numbers: ArrayLike<number>,
    knownSlot: number | undefined,
  ): number {
    const stateCode = this.#states.codeOf(task.url_state);
    const failReasonCode = this.#reasons.codeOf(task.fail_reason);
    const parkReasonCode = this.#reasons.codeOf(task.park_reason);
    const existing = knownSlot ?? this.#index.find(hashWords, 0);
    const isNew = existing < 0;
    // A URL's domain comes with its URL and never changes: looked up by name (a hash of a string
    // new to the map, the largest cost of a put) only when it does.
    const domainCode =
      !isNew && this.domainOf(existing) === task.domain
        ? this.#chunks[existing >>> CHUNK_BITS].domains[existing & SLOT_MASK]
        : this.#domains.codeOf(task.domain);
    const slot = isNew ? this.#newSlot() : existing;
    const chunk = this.#chunks[slot >>> CHUNK_BITS];
    const at = slot & SLOT_MASK;
    if (isNew) {
      chunk.hashWords.set(hashWords, at * 4);
      this.#index.insert(slot);
      this.#setText(chunk, at, URL_TEXT, task.url, false);
    }
    chunk.domains[at] = domainCode;
    chunk.numbers.set(numbers, at * NUMBER_COUNT);
    const c = at * CODE_COUNT;
    chunk.codes[c + URL_STATE] = stateCode;
    chunk.codes[c + FAIL_REASON] = failReasonCode;
    chunk.codes[c + PARK_REASON] = parkReasonCode;
    chunk.codes[c + FLAGS] = task.is_in_due_index ? IS_IN_DUE_INDEX_FLAG : 0;
    this.#setId(chunk, at, APPLIED_LEASE_ID_TEXT, task.applied_lease_id, !isNew);
    this.#setId(chunk, at, OBJECT_ID_TEXT, task.object_id, !isNew);
    this.#setText(chunk, at, ETAG_TEXT, task.etag, !isNew);
    this.#compactWhenWasteful();
    return slot;
  }

  /** The document's url_hash read into the lookup words and its numbers; refuses what put would. */
  #checked(task: UrlTaskDocument): Float64Array {
    try {
      readUrlHashWords(task.url_hash, this.#lookupWords);
    } catch (error) {
      throw new ResidentValueError((error as Error).message);
    }
    return this.#numbersOf(task);
  }

  /** The code of the domain of the URL in `slot` (domainCodeOf answers the same for its name). */
  domainCodeOfSlot(slot: number): number {
    return this.#chunkOf(slot).domains[slot & SLOT_MASK];
  }

  /** The code of `domain`, or -1 when no URL of it was ever put. */
  domainCodeOf(domain: string): number {
    return this.#domains.existingCodeOf(domain);
  }

  /** The url_state of the URL in `slot`, as stored. */
  urlStateOf(slot: number): UrlState {
    const chunk = this.#chunkOf(slot);
    return this.#states.textOf(
      chunk.codes[(slot & SLOT_MASK) * CODE_COUNT + URL_STATE],
    ) as UrlState;
  }

  /** is_in_due_index of the URL in `slot`. */
  isInDueIndex(slot: number): boolean {
    const chunk = this.#chunkOf(slot);
    return (chunk.codes[(slot & SLOT_MASK) * CODE_COUNT + FLAGS] & IS_IN_DUE_INDEX_FLAG) !== 0;
  }

  /** The order of two slots' url_hashes as their hex texts sort (negative: `left` first). */
  compareHashes(left: number, right: number): number {
    const leftWords = this.#chunks[left >>> CHUNK_BITS].hashWords;
    const rightWords = this.#chunks[right >>> CHUNK_BITS].hashWords;
    const l = (left & SLOT_MASK) * 4;
    const r = (right & SLOT_MASK) * 4;
    for (let word = 0; word < 4; word += 1) {
      // Unsigned words: big-endian hex text order is numeric order, word by word.
      const difference = leftWords[l + word] - rightWords[r + word];
      if (difference !== 0) return difference;
    }
    return 0;
  }

  /** The domain of the URL in `slot`. */
  domainOf(slot: number): string {
    return this.#domains.textOf(this.#chunkOf(slot).domains[slot & SLOT_MASK]) as string;
  }

  /** The url_hash of the URL in `slot`. */
  urlHashOf(slot: number): string {
    return hexOfWords(this.#chunkOf(slot).hashWords, (slot & SLOT_MASK) * 4, 4);
  }

  /** Domain codes given so far: each is below this. */
  get domainCodeCount(): number {
    return this.#domains.size;
  }

  /** The domain a domain code stands for (domainCodeOf's inverse). */
  domainOfCode(code: number): string {
    return this.#domains.textOf(code) as string;
  }

  /** The due time of the URL in `slot`, Unix ms. */
  dueAtMsOf(slot: number): number {
    return this.#chunkOf(slot).numbers[(slot & SLOT_MASK) * NUMBER_COUNT + DUE_AT];
  }

  /** The priority_rank of the URL in `slot`; NaN while it has none. */
  priorityRankOf(slot: number): number {
    return this.#chunkOf(slot).numbers[(slot & SLOT_MASK) * NUMBER_COUNT + PRIORITY_RANK];
  }

  firstHashWordOf(slot: number): number {
    return this.#chunks[slot >>> CHUNK_BITS].hashWords[(slot & SLOT_MASK) * 4];
  }

  hasHash(slot: number, words: Uint32Array, at: number): boolean {
    const hashWords = this.#chunks[slot >>> CHUNK_BITS].hashWords;
    const h = (slot & SLOT_MASK) * 4;
    return (
      hashWords[h] === words[at] &&
      hashWords[h + 1] === words[at + 1] &&
      hashWords[h + 2] === words[at + 2] &&
      hashWords[h + 3] === words[at + 3]
    );
  }

  #chunkOf(slot: number): SlotChunk {
    if (!(slot >= 0 && slot < this.#size)) throw new RangeError(`no slot ${slot}`);
    return this.#chunks[slot >>> CHUNK_BITS];
  }

  #newSlot(): number {
    const slot = this.#size;
    if (slot >>> CHUNK_BITS >= this.#chunks.length) this.#chunks.push(new SlotChunk());
    this.#size += 1;
    return slot;
  }

  /** The document's numbers as the slot keeps them; refuses a time that would not read back. */
  #numbersOf(task: UrlTaskDocument): Float64Array {
    const numbers = this.#putNumbers;
    numbers[PRIORITY_RANK] = task.priority_rank ?? Number.NaN;
    numbers[SEED_PRIORITY_RANK] = task.seed_priority_rank ?? Number.NaN;
    numbers[PRIORITY_RANK_OFFSET] = task.priority_rank_offset;
    numbers[DUE_AT] = timeMs('due_at', task.due_at);
    numbers[ATTEMPT_COUNT] = task.attempt_count;
    numbers[LEASE_EXPIRY_COUNT] = task.lease_expiry_count;
    numbers[LAST_MODIFIED_AT] = nullableTimeMs('last_modified_at', task.last_modified_at);
    numbers[FETCHED_AT] = nullableTimeMs('fetched_at', task.fetched_at);
    numbers[REVISIT_INTERVAL_SECONDS] = task.revisit_interval_seconds ?? Number.NaN;
    numbers[DISCOVERED_AT] = timeMs('discovered_at', task.discovered_at);
    numbers[UPDATED_AT] = timeMs('updated_at', task.updated_at);
    numbers[ROBOTS_RULE_VERIFIED_AT] = nullableTimeMs(
      'robots_rule_verified_at',
      task.robots_rule_verified_at,
    );
    numbers[LAST_RENDERED_AT] = nullableTimeMs('last_rendered_at', task.last_rendered_at);
    return numbers;
  }

  #textOf(chunk: SlotChunk, at: number, field: number): string | null {
    const t = at * TEXT_COUNT + field;
    const byteLength = chunk.textByteLengths[t];
    return byteLength === NULL_TEXT ? null : this.#arena.read(chunk.textAt[t], byteLength);
  }

  #idOf(chunk: SlotChunk, at: number, field: number): string | null {
    if (chunk.textByteLengths[at * TEXT_COUNT + field] !== IN_ID_WORDS) {
      return this.#textOf(chunk, at, field);
    }
    return field === APPLIED_LEASE_ID_TEXT
      ? hexOfWords(chunk.idWords, at * ID_WORD_COUNT + LEASE_ID_WORDS, 2, LEASE_ID_PREFIX)
      : hexOfWords(chunk.idWords, at * ID_WORD_COUNT + OBJECT_ID_WORDS, 4);
  }

  /** Sets a text field, keeping the arena's bytes when it is unchanged. */
  #setText(
    chunk: SlotChunk,
    at: number,
    field: number,
    text: string | null,
    hasPrevious: boolean,
  ): void {
    const t = at * TEXT_COUNT + field;
    const previousLength = hasPrevious ? chunk.textByteLengths[t] : NULL_TEXT;
    if (previousLength >= 0) {
      if (text !== null && this.#arena.read(chunk.textAt[t], previousLength) === text) return;
      this.#arena.release(previousLength);
    }
    if (text === null) {
      chunk.textByteLengths[t] = NULL_TEXT;
      return;
    }
    const reference = this.#arena.append(text);
    chunk.textAt[t] = reference.at;
    chunk.textByteLengths[t] = reference.byteLength;
  }

  /** Sets an id field: in the id words when it has its usual form, else as text. */
  #setId(
    chunk: SlotChunk,
    at: number,
    field: number,
    id: string | null,
    hasPrevious: boolean,
  ): void {
    const words = chunk.idWords;
    const w = at * ID_WORD_COUNT;
    const fits =
      id !== null &&
      (field === APPLIED_LEASE_ID_TEXT
        ? id.length === LEASE_ID_PREFIX.length + 16 &&
          id.startsWith(LEASE_ID_PREFIX) &&
          readHexWords(id, LEASE_ID_PREFIX.length, LEASE_ID_WORD_COUNT, words, w + LEASE_ID_WORDS)
        : id.length === 32 &&
          readHexWords(id, 0, OBJECT_ID_WORD_COUNT, words, w + OBJECT_ID_WORDS));
    if (!fits) {
      this.#setText(chunk, at, field, id, hasPrevious);
      return;
    }
    const t = at * TEXT_COUNT + field;
    if (hasPrevious && chunk.textByteLengths[t] >= 0) this.#arena.release(chunk.textByteLengths[t]);
    chunk.textByteLengths[t] = IN_ID_WORDS;
  }

  /**
   * Copies the live text into a fresh arena once released bytes outweigh it (and the floor):
   * replaced etags and ids of an unusual form are the only garbage. One pass over the slots.
   */
  #compactWhenWasteful(): void {
    const arena = this.#arena;
    if (arena.garbageByteCount <= Math.max(arena.liveByteCount, this.#minGarbageByteCount)) return;
    this.#compactText();
  }

  #compactText(): void {
    const arena = this.#arena;
    const compacted = new TextArena();
    for (let slot = 0; slot < this.#size; slot += 1) {
      const chunk = this.#chunks[slot >>> CHUNK_BITS];
      const at = slot & SLOT_MASK;
      for (let t = at * TEXT_COUNT; t < (at + 1) * TEXT_COUNT; t += 1) {
        const byteLength = chunk.textByteLengths[t];
        if (byteLength >= 0) {
          chunk.textAt[t] = compacted.copyFrom(arena, chunk.textAt[t], byteLength);
        }
      }
    }
    this.#arena = compacted;
  }
}

function nullableNumber(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

function nullableTime(ms: number): string | null {
  return Number.isNaN(ms) ? null : timeTextOf(ms);
}

function timeMs(field: string, text: string): number {
  const ms = exactMsOfTimeText(text);
  if (Number.isNaN(ms)) {
    throw new ResidentValueError(`${field} is not a time like 2026-08-15T07:47:52Z: ${text}`);
  }
  return ms;
}

function nullableTimeMs(field: string, text: string | null): number {
  return text === null ? Number.NaN : timeMs(field, text);
}
