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
 * The rows written through the journal that are not in the `rows` database yet, in two views:
 *
 * - committed: versions whose journal record is durable (what a reader may see — never a write
 *   that a crash could still take back), kept sorted for range scans and checkpoints;
 * - latest: the newest version of each key, durable or still being written (what a
 *   compare-and-swap decides on: it is ordered after every write issued before it).
 *
 * A checkpoint copies committed versions into `rows` and then releases them here.
 */
export class WriteOverlay {
  readonly #committed = new BTree<string, RowVersion>();
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
    if (start >= end) return;
    for (const [overlayKey, version] of this.#committed.entries(start)) {
      if (overlayKey >= end) return;
      yield version;
    }
  }

  /** Every committed version with its overlay key, in key order (what a checkpoint writes). */
  committedVersions(): Array<[string, RowVersion]> {
    return this.#committed.toArray();
  }

  /** Issued, not yet durable keys in [start, end), unordered (few: the records being written). */
  *issuedKeysInRange(start: string, end: string): Generator<Buffer> {
    for (const [overlayKey, version] of this.#issued) {
      if (overlayKey >= start && overlayKey < end) yield version.key;
    }
  }

  /** Drops `version` once `rows` holds it, unless a newer version replaced it. */
  release(overlayKey: string, version: RowVersion): void {
    if (this.#committed.get(overlayKey) === version) this.#committed.delete(overlayKey);
  }

  /** Rows held here, committed and issued. */
  get size(): number {
    return this.#committed.size + this.#issued.size;
  }

  get committedSize(): number {
    return this.#committed.size;
  }
}
