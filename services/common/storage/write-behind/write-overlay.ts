import BTree from 'sorted-btree';
import { STORED_LENGTH_BYTES, type JournalRecordLayout, type StoredWrite } from './journal-record';

/**
 * One version of a row written through the journal: the key, its stored form (envelope) or
 * undefined for a delete, and the journal record that carries it.
 *
 * Its bytes are read in the journal record itself (a view made on each use: reads of the overlay
 * are few, mostly checkpoints), not kept as a key and a value Buffer of their own: those were
 * slices of Node's shared 8 KiB pool, and the overlay — holding rows for a second or two, past
 * two scavenges, into V8's old generation — kept whole slabs alive with them. The scheduler
 * promoted 6.0–8.5 KB per URL at 1M URLs (3.0–3.2 written directly, without the overlay), and
 * old ArrayBuffers count as external memory, whose growth starts mark-compacts of its own.
 */
export class RowVersion implements StoredWrite {
  /** The key as the overlay's maps hold it (overlayKeyOf). */
  readonly overlayKey: string;

  constructor(
    /** The journal record that carries the version, and where in it. */
    private readonly record: Buffer,
    private readonly keyStart: number,
    private readonly storedStart: number,
    /** -1: the version deletes the row. */
    private readonly storedEnd: number,
    readonly sequence: number,
  ) {
    this.overlayKey = record.toString('latin1', keyStart, this.#keyEnd());
  }

  get key(): Buffer {
    return this.record.subarray(this.keyStart, this.#keyEnd());
  }

  /** The stored form's length field sits between the key and the stored form (journal-record.ts). */
  #keyEnd(): number {
    return this.storedStart - STORED_LENGTH_BYTES;
  }

  get stored(): Buffer | undefined {
    return this.storedEnd < 0 ? undefined : this.record.subarray(this.storedStart, this.storedEnd);
  }
}

/** A row key as a map key: latin1 keeps one code unit per byte, so string order is byte order. */
export function overlayKeyOf(key: Buffer): string {
  return key.toString('latin1');
}

/**
 * The table a key belongs to: its text up to the second `:` (`{service}:{table}:`, storage-key.ts),
 * or '' for a key without one (no table: such keys are kept in no sorted order of their own).
 */
export function tableOfOverlayKey(overlayKey: string): string {
  const first = overlayKey.indexOf(':');
  const second = first < 0 ? -1 : overlayKey.indexOf(':', first + 1);
  return second < 0 ? '' : overlayKey.slice(0, second + 1);
}

/**
 * An empty key order of one table's versions, compared by compareKeys: sorted-btree's default
 * comparator orders strings the same way, but checks both keys' types first and may compare them
 * three times. Inserting was ~1.1–1.6 µs a key with it and ~0.7–1.0 with compareKeys (a scratch
 * loop: 25,000 due-index keys of bench:frontier's shape); three of the ~6 rows a URL writes at 1M
 * URLs go to ordered tables (the due and revisit indexes).
 */
function orderedVersions(): BTree<string, RowVersion> {
  return new BTree<string, RowVersion>(undefined, compareKeys);
}

/** A table's committed versions in key order, and whether a range read used it this generation. */
interface OrderedTable {
  /** `{service}:{table}:` */
  table: string;
  versions: BTree<string, RowVersion>;
  isRangeRead: boolean;
}

/**
 * The versions committed between two checkpoints: each in one place — a B+ tree per table read by
 * range (key order), a hash map for the rest (found by key alone).
 *
 * A version of an ordered table is not in the map as well: the map set cost ~100 ns a row (its
 * string's hash, a cache miss in a table of ~50,000 keys, the table regrown as it fills), three of
 * the ~6 rows a URL writes at 1M URLs are the due and revisit indexes' — read by range, and by key
 * hardly ever — and a key found in its table's tree is one look-up all the same (scratch replay of
 * bench:frontier's key shapes: ~700–950 → ~480–640 ns a row, tree and map together).
 */
class Generation {
  /** Versions of tables not kept in order. */
  readonly unordered = new Map<string, RowVersion>();
  /** A list, not a map: every write looks for its table here, without an iterator per look. */
  readonly orderedTables: OrderedTable[];

  /** `orderedTableNames`: tables kept in order from the start (read by range lately). */
  constructor(orderedTableNames: readonly string[]) {
    this.orderedTables = orderedTableNames.map((table) => ({
      table,
      versions: orderedVersions(),
      isRangeRead: false,
    }));
  }

  set(version: RowVersion): void {
    const ordered = this.#orderedTableOf(version.overlayKey);
    if (ordered === undefined) this.unordered.set(version.overlayKey, version);
    else ordered.set(version.overlayKey, version);
  }

  get(overlayKey: string): RowVersion | undefined {
    const ordered = this.#orderedTableOf(overlayKey);
    return ordered === undefined ? this.unordered.get(overlayKey) : ordered.get(overlayKey);
  }

  /** Keys held, each once (a tree's size is kept by the tree: no count of our own to drift). */
  get size(): number {
    let size = this.unordered.size;
    for (const { versions } of this.orderedTables) size += versions.size;
    return size;
  }

  /** Every version held, each key once (in no set order). */
  forEachVersion(visit: (version: RowVersion) => void): void {
    this.unordered.forEach(visit);
    for (const { versions } of this.orderedTables) versions.forEach(visit);
  }

  /**
   * The table's committed versions in key order. A table not kept in order yet is from now on: its
   * versions move out of the map into a tree of their own.
   */
  orderedTable(table: string): BTree<string, RowVersion> {
    let ordered = this.orderedTables.find((candidate) => candidate.table === table);
    if (ordered === undefined) {
      const versions = orderedVersions();
      for (const [overlayKey, version] of this.unordered) {
        if (!overlayKey.startsWith(table)) continue;
        versions.set(overlayKey, version);
        this.unordered.delete(overlayKey);
      }
      ordered = { table, versions, isRangeRead: true };
      this.orderedTables.push(ordered);
    }
    ordered.isRangeRead = true;
    return ordered.versions;
  }

  /** Tables a range read used in this generation: the next keeps them in order from its start. */
  tablesReadByRange(): string[] {
    return this.orderedTables
      .filter((ordered) => ordered.isRangeRead)
      .map((ordered) => ordered.table);
  }

  /**
   * The ordered versions of the table holding `overlayKey`, if that table is kept in order. Found
   * by prefix: the ordered tables are few (the ones read by range), and no table name is cut out
   * of every key written.
   */
  #orderedTableOf(overlayKey: string): BTree<string, RowVersion> | undefined {
    const orderedTables = this.orderedTables;
    for (let index = 0; index < orderedTables.length; index += 1) {
      if (overlayKey.startsWith(orderedTables[index].table)) return orderedTables[index].versions;
    }
    return undefined;
  }
}

/**
 * The rows written through the journal that are not in the `rows` database yet, in two views:
 *
 * - committed: versions whose journal record is durable (what a reader may see — never a write
 *   that a crash could still take back);
 * - latest: the newest version of each key, durable or still being written (what a
 *   compare-and-swap decides on: it is ordered after every write issued before it).
 *
 * Versions still being written are kept per journal record, oldest first, and searched only by a
 * compare-and-swap or a range delete (the scheduler makes neither on its hot path): a map of them
 * by key cost three lookups for every row written — set when issued, found and deleted when
 * committed — for the few reads that need them.
 *
 * Committed versions live in generations. A checkpoint takes the current generation whole
 * (beginCheckpoint) — what commits meanwhile goes to a new one, and readers look there first — and
 * drops it whole once `rows` holds it (endCheckpoint). Releasing the rows one by one instead (a map
 * delete each, a tree delete for ordered tables, in slices between requests) was 1.7 % of the
 * scheduler's main thread at 1M URLs, and each checkpoint shrank and regrew the maps' tables.
 *
 * Only tables that are read by range keep their versions in key order (instead of in the hash map:
 * Generation): on the scheduler's frontier most rows (url_task, domain_runtime, lease records) are
 * only ever read by key, and keeping every row sorted made the overlay's commits and releases ~11 %
 * of the scheduler's main thread at 1M URLs (~7 % this way; bench:frontier profiles). A generation
 * keeps in order from its start the tables the one before it saw read by range; others are sorted
 * on their first range read. A range read that spans tables (rare: a whole-keyspace delete) sorts
 * what it finds.
 */
export class WriteOverlay {
  #current = new Generation([]);
  /** The generation a checkpoint is writing into `rows`, readable until it is there. */
  #checkpointing: Generation | undefined;
  /** The versions of each journal record issued and not yet committed or withdrawn, oldest first. */
  readonly #issuedRecords: RowVersion[][] = [];
  #issuedCount = 0;

  /** Records the versions of a journal record being written; returns them in write order. */
  issue(sequence: number, layout: JournalRecordLayout): RowVersion[] {
    const { record, keyStarts, storedStarts, storedEnds } = layout;
    const versions = new Array<RowVersion>(keyStarts.length);
    for (let index = 0; index < keyStarts.length; index += 1) {
      versions[index] = new RowVersion(
        record,
        keyStarts[index],
        storedStarts[index],
        storedEnds[index],
        sequence,
      );
    }
    this.#issuedRecords.push(versions);
    this.#issuedCount += versions.length;
    return versions;
  }

  /** The record carrying `versions` is durable: readers see them from now on. */
  commit(versions: readonly RowVersion[]): void {
    this.#forgetIssued(versions);
    const current = this.#current;
    for (let index = 0; index < versions.length; index += 1) {
      current.set(versions[index]);
    }
  }

  /** The record carrying `versions` will never be durable. */
  withdraw(versions: readonly RowVersion[]): void {
    this.#forgetIssued(versions);
  }

  /** Records commit in issue order (the backend sees to it), so this is nearly always the first. */
  #forgetIssued(versions: readonly RowVersion[]): void {
    const position = this.#issuedRecords.indexOf(versions as RowVersion[]);
    if (position < 0) return;
    this.#issuedRecords.splice(position, 1);
    this.#issuedCount -= versions.length;
  }

  /** The newest issued, not yet committed version of `overlayKey`: newest record first. */
  #latestIssued(overlayKey: string): RowVersion | undefined {
    for (let record = this.#issuedRecords.length - 1; record >= 0; record -= 1) {
      const versions = this.#issuedRecords[record];
      for (let index = versions.length - 1; index >= 0; index -= 1) {
        if (versions[index].overlayKey === overlayKey) return versions[index];
      }
    }
    return undefined;
  }

  committedVersion(overlayKey: string): RowVersion | undefined {
    return this.#current.get(overlayKey) ?? this.#checkpointing?.get(overlayKey);
  }

  latestVersion(overlayKey: string): RowVersion | undefined {
    return this.#latestIssued(overlayKey) ?? this.committedVersion(overlayKey);
  }

  /**
   * Whether a committed version lies in [start, end): what a range read asks first. Most ranges
   * the scheduler reads (one domain's due queue) hold none, and the iterators of a merge cost
   * ~1.6 KB of garbage per URL leased at 1M URLs (V8's sampling heap profiler).
   */
  hasCommittedInRange(start: string, end: string): boolean {
    if (start >= end || this.committedSize === 0) return false;
    const table = tableOfSingleTableRange(start, end);
    if (table === undefined) return !this.#sortedRange(start, end).next().done; // rare
    return (
      startsBefore(this.#current.orderedTable(table), start, end) ||
      (this.#checkpointing !== undefined &&
        startsBefore(this.#checkpointing.orderedTable(table), start, end))
    );
  }

  /** Committed versions with keys in [start, end), ascending. */
  *committedRange(start: string, end: string): Generator<RowVersion> {
    if (start >= end || this.committedSize === 0) return;
    const table = tableOfSingleTableRange(start, end);
    if (table === undefined) {
      yield* this.#sortedRange(start, end);
      return;
    }
    const newer = entriesBefore(this.#current.orderedTable(table).entries(start), end);
    if (this.#checkpointing === undefined) {
      for (const [, version] of newer) yield version;
      return;
    }
    // Two sorted runs; the current generation's version wins a key both hold.
    const older = entriesBefore(this.#checkpointing.orderedTable(table).entries(start), end);
    let fromNewer = newer.next();
    let fromOlder = older.next();
    while (!fromNewer.done || !fromOlder.done) {
      const order = fromNewer.done
        ? 1
        : fromOlder.done
          ? -1
          : compareKeys(fromNewer.value[0], fromOlder.value[0]);
      if (order > 0) {
        yield (fromOlder as IteratorYieldResult<[string, RowVersion]>).value[1];
        fromOlder = older.next();
        continue;
      }
      if (order === 0) fromOlder = older.next();
      yield (fromNewer as IteratorYieldResult<[string, RowVersion]>).value[1];
      fromNewer = newer.next();
    }
  }

  /**
   * Starts a checkpoint: every committed version, each key once at its newest, for `rows` (in no
   * set order). They stay readable here until endCheckpoint; what commits meanwhile is kept apart
   * and read first. Walked with forEach, not for…of: it runs once a checkpoint, too rarely to be
   * optimized, and unoptimized for…of over ~20,000 entries held the event loop 8–14 ms (forEach:
   * 1.2–1.5 ms).
   */
  beginCheckpoint(): RowVersion[] {
    if (this.#checkpointing !== undefined) throw new Error('a checkpoint is already under way');
    const taken = this.#current;
    this.#checkpointing = taken;
    this.#current = new Generation(taken.tablesReadByRange());
    const versions = new Array<RowVersion>(taken.size);
    let index = 0;
    taken.forEachVersion((version) => {
      versions[index] = version;
      index += 1;
    });
    return versions;
  }

  /** `rows` holds every version beginCheckpoint handed out: they are dropped here, all at once. */
  endCheckpoint(): void {
    this.#checkpointing = undefined;
  }

  /**
   * Issued, not yet durable keys in [start, end), unordered, a key as often as it was written (few:
   * the records being written).
   */
  *issuedKeysInRange(start: string, end: string): Generator<string> {
    for (const versions of this.#issuedRecords) {
      for (const { overlayKey } of versions) {
        if (overlayKey >= start && overlayKey < end) yield overlayKey;
      }
    }
  }

  /**
   * Versions held here, committed and issued: a key counts once per generation and once per record
   * being written that carries it.
   */
  get size(): number {
    return this.committedSize + this.#issuedCount;
  }

  /** Committed versions held here (a key written during a checkpoint counts twice till it ends). */
  get committedSize(): number {
    return this.#current.size + (this.#checkpointing?.size ?? 0);
  }

  /** A range across tables: the versions in it, sorted for this read alone. */
  *#sortedRange(start: string, end: string): Generator<RowVersion> {
    const found = new Map<string, RowVersion>();
    // The checkpointing generation first: the current one's versions replace its own.
    for (const generation of [this.#checkpointing, this.#current]) {
      if (generation === undefined) continue;
      generation.forEachVersion((version) => {
        const { overlayKey } = version;
        if (overlayKey >= start && overlayKey < end) found.set(overlayKey, version);
      });
    }
    const sortedKeys = [...found.keys()].sort(compareKeys);
    for (const overlayKey of sortedKeys) yield found.get(overlayKey) as RowVersion;
  }
}

/** The table holding all of [start, end), or undefined when the range spans tables (or none). */
function tableOfSingleTableRange(start: string, end: string): string | undefined {
  const table = tableOfOverlayKey(start);
  // Inside one table when `end` is at most the first key after it (`…:` → `…;`, ':' + 1).
  return table === '' || end > `${table.slice(0, -1)};` ? undefined : table;
}

/** Whether `versions` holds a key in [start, end). */
function startsBefore(versions: BTree<string, RowVersion>, start: string, end: string): boolean {
  const first = versions.getPairOrNextHigher(start);
  return first !== undefined && first[0] < end;
}

/** `entries` (ascending) up to, not including, `end`. */
function* entriesBefore(
  entries: Iterator<[string, RowVersion]>,
  end: string,
): Generator<[string, RowVersion], void, undefined> {
  for (let entry = entries.next(); !entry.done; entry = entries.next()) {
    if (entry.value[0] >= end) return;
    yield entry.value;
  }
}

function compareKeys(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
