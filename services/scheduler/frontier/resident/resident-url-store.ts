import type { UrlTaskDocument } from '../frontier-documents';
import { placementOfDocument, ResidentUrlIndexes } from './resident-url-indexes';
import {
  ResidentUrlTable,
  type CheckedUrlTask,
  type ResidentCodeLists,
  type ResidentSlice,
  type ResidentUrlTableOptions,
} from './resident-url-table';
import { urlSlotEntriesOf } from './url-slot-index';

/**
 * url_task and its three ordering indexes held in memory (docs/resident-frontier.md, steps 1–2):
 * the table of documents, and the indexes kept in step with every put — the URL leaves the index
 * its old fields placed it in and enters the one its new fields do, so the indexes always hold
 * exactly the placements of the stored documents (index-placement.ts), as the keyspace's do once a
 * batch has landed.
 */
export class ResidentUrlStore {
  readonly table: ResidentUrlTable;
  readonly indexes: ResidentUrlIndexes;

  constructor(options: ResidentUrlTableOptions = {}, table = new ResidentUrlTable(options)) {
    this.table = table;
    this.indexes = new ResidentUrlIndexes(table);
    this.indexes.addAll(table.size);
  }

  /** A store of a snapshot's slices and code lists: the indexes are rebuilt from the documents. */
  static fromSlices(
    slices: Iterable<ResidentSlice>,
    codeLists: ResidentCodeLists,
    options: ResidentUrlTableOptions = {},
  ): ResidentUrlStore {
    return new ResidentUrlStore(options, ResidentUrlTable.fromSlices(slices, codeLists, options));
  }

  /**
   * fromSlices with the table's url_hash index built by `indexEntriesOf` from its first hash words
   * — on another thread (urlSlotEntriesOnThread) while this one builds the ordering indexes — or,
   * if that fails, here after them. A snapshot of 1.8M URLs was read in 0.91 s this way against
   * 1.00 s with the index built here first (medians of five alternating starts; the ordering
   * indexes took 0.38–0.48 s, and the index was there when they were done).
   */
  static async fromSlicesIndexedBy(
    slices: Iterable<ResidentSlice>,
    codeLists: ResidentCodeLists,
    options: ResidentUrlTableOptions,
    indexEntriesOf: (firstWords: Uint32Array) => Promise<Int32Array>,
  ): Promise<ResidentUrlStore> {
    const table = ResidentUrlTable.fromSlicesUnindexed(slices, codeLists, options);
    const firstWords = table.firstHashWords();
    const entries = indexEntriesOf(firstWords).catch(() => urlSlotEntriesOf(firstWords));
    const store = new ResidentUrlStore(options, table);
    table.adoptIndexEntries(await entries);
    return store;
  }

  get size(): number {
    return this.table.size;
  }

  /** Stores `task` and moves it to the index its fields place it in; answers its slot. */
  put(task: UrlTaskDocument): number {
    return this.putChecked(this.table.check(task));
  }

  /** put, of a document ResidentUrlTable.check answered for (read once, when it was written). */
  putChecked(checked: CheckedUrlTask): number {
    const existing = this.table.slotOfWords(checked.hashWords);
    if (existing < 0) {
      const slot = this.table.putChecked(checked, existing);
      this.indexes.add(slot);
      return slot;
    }
    // Where the URL stays in its queue, its heap has nothing to move (a heap orders by the fields
    // it reads, so a URL whose order changes leaves it while they do).
    if (
      this.indexes.placementOf(existing) === placementOfDocument(checked.task) &&
      this.table.keepsOrderFields(existing, checked)
    ) {
      this.table.putChecked(checked, existing);
      return existing;
    }
    this.indexes.remove(existing);
    try {
      this.table.putChecked(checked, existing);
    } finally {
      // Back where its fields — the new ones, or the old ones when the put was refused — place it.
      this.indexes.add(existing);
    }
    return existing;
  }

  get(urlHash: string): UrlTaskDocument | undefined {
    return this.table.get(urlHash);
  }

  read(slot: number): UrlTaskDocument {
    return this.table.read(slot);
  }
}
