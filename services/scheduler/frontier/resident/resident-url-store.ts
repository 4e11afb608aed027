import type { UrlTaskDocument } from '../frontier-documents';
import { ResidentUrlIndexes } from './resident-url-indexes';
import {
  ResidentUrlTable,
  type ResidentCodeLists,
  type ResidentSlice,
  type ResidentUrlTableOptions,
} from './resident-url-table';

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
    for (let slot = 0; slot < table.size; slot += 1) this.indexes.add(slot);
  }

  /** A store of a snapshot's slices and code lists: the indexes are rebuilt from the documents. */
  static fromSlices(
    slices: Iterable<ResidentSlice>,
    codeLists: ResidentCodeLists,
    options: ResidentUrlTableOptions = {},
  ): ResidentUrlStore {
    return new ResidentUrlStore(options, ResidentUrlTable.fromSlices(slices, codeLists, options));
  }

  get size(): number {
    return this.table.size;
  }

  /** Stores `task` and moves it to the index its fields place it in; answers its slot. */
  put(task: UrlTaskDocument): number {
    const existing = this.table.slotOf(task.url_hash);
    if (existing < 0) {
      const slot = this.table.put(task, existing);
      this.indexes.add(slot);
      return slot;
    }
    // Out of its index while its fields change: a heap orders by the fields it reads.
    this.indexes.remove(existing);
    try {
      this.table.put(task, existing);
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
