import BTree from 'sorted-btree';
import type { StoredWrite } from './journal-record';

/**
 * One version of a row written through the journal: the key, its stored form (envelope) or
 * undefined for a delete, and the journal record that carries it. Compared by identity: a
 * checkpoint releases a version only if no newer one replaced it meanwhile.
 */
export interface RowVersion extends StoredWrite {
  readonly sequence: number;
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

/** The committed versions a checkpoint takes, each at the index of its overlay key. */
export interface CommittedVersions {
  overlayKeys: string[];
  versions: RowVersion[];
}

/** A table's committed versions in key order, and whether a range read used them lately. */
interface OrderedTable {
  /** `{service}:{table}:` */
  table: string;
  versions: BTree<string, RowVersion>;
  isReadSinceLastLook: boolean;
}

/**
 * The rows written through the journal that are not in the `rows` database yet, in two views:
 *
 * - committed: versions whose journal record is durable (what a reader may see — never a write
 *   that a crash could still take back);
 * - latest: the newest version of each key, durable or still being written (what a
 *   compare-and-swap decides on: it is ordered after every write issued before it).
 *
 * A checkpoint copies committed versions into `rows` and then releases them here.
 *
 * Committed versions are found by key in a hash map. Only tables that are read by range keep them
 * in key order as well (a B+ tree per table, built on the table's first range read, dropped once
 * a whole checkpoint interval passed without one): on the scheduler's frontier most rows
 * (url_task, domain_runtime, lease records) are only ever read by key, and keeping every row
 * sorted made the overlay's commits and releases ~11 % of the scheduler's main thread at 1M URLs
 * (~7 % this way; bench:frontier profiles). A range read that spans tables (rare: a
 * whole-keyspace delete) sorts what it finds.
 */
export class WriteOverlay {
  readonly #committed = new Map<string, RowVersion>();
  /** A list, not a map: every write looks for its table here, without an iterator per look. */
  #orderedTables: OrderedTable[] = [];
  readonly #issued = new Map<string, RowVersion>();

  /** Records the versions of a journal record being written; returns them in write order. */
  issue(sequence: number, writes: readonly StoredWrite[]): Array<[string, RowVersion]> {
    return writes.map(({ key, stored }) => {
      const overlayKey = overlayKeyOf(key);
      const version: RowVersion = { key, stored, sequence };
      this.#issued.set(overlayKey, version);
      return [overlayKey, version];
    });
  }

  /** The record carrying `versions` is durable: readers see them from now on. */
  commit(versions: ReadonlyArray<[string, RowVersion]>): void {
    for (const [overlayKey, version] of versions) {
      this.#committed.set(overlayKey, version);
      this.#orderedTableOf(overlayKey)?.set(overlayKey, version);
      if (this.#issued.get(overlayKey) === version) this.#issued.delete(overlayKey);
    }
  }

  /** The record carrying `versions` will never be durable. */
  withdraw(versions: ReadonlyArray<[string, RowVersion]>): void {
    for (const [overlayKey, version] of versions) {
      if (this.#issued.get(overlayKey) === version) this.#issued.delete(overlayKey);
    }
  }

  committedVersion(overlayKey: string): RowVersion | undefined {
    return this.#committed.get(overlayKey);
  }

  latestVersion(overlayKey: string): RowVersion | undefined {
    return this.#issued.get(overlayKey) ?? this.#committed.get(overlayKey);
  }

  /** Committed versions with keys in [start, end), ascending. */
  *committedRange(start: string, end: string): Generator<RowVersion> {
    if (start >= end || this.#committed.size === 0) return;
    const table = tableOfOverlayKey(start);
    // Inside one table when `end` is at most the first key after it (`…:` → `…;`, ':' + 1).
    if (table === '' || end > `${table.slice(0, -1)};`) {
      yield* this.#sortedRange(start, end);
      return;
    }
    for (const [overlayKey, version] of this.#orderedTable(table).entries(start)) {
      if (overlayKey >= end) return;
      yield version;
    }
  }

  /**
   * Every committed version and its overlay key at the same index (what a checkpoint writes), in
   * no set order. Two flat arrays, not a pair per row: a checkpoint holds them for most of a
   * second, long enough for tens of thousands of pairs to be promoted to the old generation.
   * Walked with forEach, not for…of: it runs once a checkpoint, too rarely to be optimized, and
   * unoptimized for…of over ~20,000 entries held the event loop 8–14 ms (forEach: 1.2–1.5 ms).
   */
  committedVersions(): CommittedVersions {
    const overlayKeys = new Array<string>(this.#committed.size);
    const versions = new Array<RowVersion>(this.#committed.size);
    let index = 0;
    this.#committed.forEach((version, overlayKey) => {
      overlayKeys[index] = overlayKey;
      versions[index] = version;
      index += 1;
    });
    return { overlayKeys, versions };
  }

  /** Issued, not yet durable keys in [start, end), unordered (few: the records being written). */
  *issuedKeysInRange(start: string, end: string): Generator<Buffer> {
    for (const [overlayKey, version] of this.#issued) {
      if (overlayKey >= start && overlayKey < end) yield version.key;
    }
  }

  /** Drops `version` once `rows` holds it, unless a newer version replaced it. */
  release(overlayKey: string, version: RowVersion): void {
    if (this.#committed.get(overlayKey) !== version) return;
    this.#committed.delete(overlayKey);
    this.#orderedTableOf(overlayKey)?.delete(overlayKey);
  }

  /**
   * Stops keeping in order the tables no range read used since the last call (a checkpoint makes
   * it once per checkpoint): a table scanned once — e.g. every url_task key read at start-up —
   * does not pay for its order for ever after.
   */
  forgetUnreadOrder(): void {
    this.#orderedTables = this.#orderedTables.filter((ordered) => ordered.isReadSinceLastLook);
    for (const ordered of this.#orderedTables) ordered.isReadSinceLastLook = false;
  }

  /** Rows held here, committed and issued. */
  get size(): number {
    return this.#committed.size + this.#issued.size;
  }

  get committedSize(): number {
    return this.#committed.size;
  }

  /**
   * The ordered versions of the table holding `overlayKey`, if that table is kept in order. Found by
   * prefix: the ordered tables are few (the ones read by range), and no table name is cut out of
   * every key written.
   */
  #orderedTableOf(overlayKey: string): BTree<string, RowVersion> | undefined {
    const orderedTables = this.#orderedTables;
    for (let index = 0; index < orderedTables.length; index += 1) {
      if (overlayKey.startsWith(orderedTables[index].table)) return orderedTables[index].versions;
    }
    return undefined;
  }

  /** The table's committed versions in key order, sorted now if it was not kept in order. */
  #orderedTable(table: string): BTree<string, RowVersion> {
    let ordered = this.#orderedTables.find((candidate) => candidate.table === table);
    if (ordered === undefined) {
      const versions = new BTree<string, RowVersion>();
      for (const [overlayKey, version] of this.#committed) {
        if (overlayKey.startsWith(table)) versions.set(overlayKey, version);
      }
      ordered = { table, versions, isReadSinceLastLook: true };
      this.#orderedTables.push(ordered);
    }
    ordered.isReadSinceLastLook = true;
    return ordered.versions;
  }

  /** A range across tables: the versions in it, sorted for this read alone. */
  *#sortedRange(start: string, end: string): Generator<RowVersion> {
    const found: Array<[string, RowVersion]> = [];
    for (const entry of this.#committed) {
      if (entry[0] >= start && entry[0] < end) found.push(entry);
    }
    found.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    for (const [, version] of found) yield version;
  }
}
