import { PrimaryKey } from '../../../common/storage/primary-key';
import type {
  ResidentScan,
  ResidentTableReads,
} from '../../../common/storage/resident-table-storage';
import type { KeyspaceRow } from '../../../common/storage/keyspace-types';
import type { IndexEntryDocument, UrlTaskDocument } from '../frontier-documents';
import type { ServiceKeyspace } from '../../../common/storage/service-keyspace';
import {
  dueIndexKey,
  EMPTY_INDEX_ENTRY,
  EMPTY_INDEX_ENTRY_CODEC,
  revisitIndexKey,
  urlTaskCodec,
  waitingIndexKey,
  type UrlTables,
} from '../frontier-tables';
import { timeTextOf } from '../time-text';
import type { ResidentIndexName } from './resident-url-indexes';
import { ResidentUrlStore } from './resident-url-store';
import type { ResidentUrlTable } from './resident-url-table';
import type { ResidentUrlTaskRows } from './resident-url-task-rows';

/**
 * url_task read from the resident url store. A page of a scan is a run of slots, resumed after
 * the slot of the url_hash it ended on: every reader of url_task scans it whole (start-up's
 * recount, the known-URL set), which the slots' order serves as well as the keys' and at no cost.
 */
export function residentUrlTaskReads(store: ResidentUrlStore): ResidentTableReads<UrlTaskDocument> {
  /** The slots of one page: from the one after `after`'s, `limit` of them at most. */
  const pageOf = ({ group, after, limit }: ResidentScan) => {
    if (group !== undefined) throw new RangeError('url_task is scanned whole');
    const first = after === undefined ? 0 : store.table.slotOf(after.parts[0]) + 1;
    if (after !== undefined && first === 0) {
      throw new RangeError(`a url_task scan resumed after ${after.encoded}, which it never gave`);
    }
    return { first, end: Math.min(store.size, first + limit) };
  };
  return {
    getMany: (primaryKeys) => primaryKeys.map((key) => store.get(key.parts[0])),
    scan: (scan) => {
      const { first, end } = pageOf(scan);
      const rows: Array<KeyspaceRow<UrlTaskDocument>> = [];
      for (let slot = first; slot < end; slot += 1) {
        const task = store.read(slot);
        rows.push({ primaryKey: PrimaryKey.of(task.url_hash), value: task });
      }
      return { rows, hasMore: end < store.size };
    },
    // The known-URL set reads every url_hash at start-up: no document built for it.
    scanKeys: (scan) => {
      const { first, end } = pageOf(scan);
      const keys: PrimaryKey[] = [];
      for (let slot = first; slot < end; slot += 1) {
        keys.push(PrimaryKey.of(store.table.urlHashOf(slot)));
      }
      return { keys, hasMore: end < store.size };
    },
  };
}

/** Where each index's keys keep the url_hash (frontier-tables.ts: the index keys). */
const URL_HASH_PART: Record<ResidentIndexName, number> = { due: 3, revisit: 2, waiting: 1 };

/**
 * One of url_task's ordering indexes read from the resident queues: the keys the keyspace index
 * would hold — exactly the stored documents' placements, never a stale entry — in the same order,
 * a domain's queue or a shard bucket at a time (ResidentUrlIndexes.walk), or the whole index group
 * after group in key order.
 */
export function residentIndexReads(
  store: ResidentUrlStore,
  index: ResidentIndexName,
): ResidentTableReads<IndexEntryDocument> {
  const { table, indexes } = store;
  const keyOf = (slot: number): PrimaryKey => indexKeyOf(table, index, slot);
  const isEntry = (key: PrimaryKey): boolean => {
    const slot = table.slotOf(key.parts[URL_HASH_PART[index]] ?? '');
    return slot >= 0 && indexes.placementOf(slot) === index && keyOf(slot).equals(key);
  };
  const scanGroup = (
    group: string,
    after: PrimaryKey | undefined,
    keys: PrimaryKey[],
    wanted: number,
  ) => {
    indexes.walk(index, group, (slot) => {
      const key = keyOf(slot);
      if (after === undefined || key.encoded > after.encoded) keys.push(key);
      return keys.length < wanted;
    });
  };
  const scanKeys = ({ group, after, limit }: ResidentScan) => {
    // One key past the page says whether another follows.
    const wanted = limit + 1;
    const keys: PrimaryKey[] = [];
    if (group !== undefined) {
      scanGroup(group, after, keys, wanted);
    } else {
      // Ordered as their keys are: by the group's encoded part and the separator after it
      // ("a.example.org/…" sorts before "a.example/…", though "a.example" < "a.example.org").
      const leadOf = (group: string) => `${PrimaryKey.of(group).encoded}/`;
      const afterGroup = after === undefined ? undefined : leadOf(after.parts[0]);
      const groups = indexes
        .groups(index)
        .map((name) => ({ name, encoded: leadOf(name) }))
        .filter(({ encoded }) => afterGroup === undefined || encoded >= afterGroup)
        .sort((left, right) => (left.encoded < right.encoded ? -1 : 1));
      for (const { name } of groups) {
        if (keys.length >= wanted) break;
        scanGroup(name, after, keys, wanted);
      }
    }
    return { keys: keys.slice(0, limit), hasMore: keys.length > limit };
  };
  return {
    getMany: (primaryKeys) =>
      primaryKeys.map((key) => (isEntry(key) ? EMPTY_INDEX_ENTRY : undefined)),
    scanKeys,
    scan: (scan: ResidentScan) => {
      const { keys, hasMore } = scanKeys(scan);
      return { rows: keys.map((key) => ({ primaryKey: key, value: EMPTY_INDEX_ENTRY })), hasMore };
    },
  };
}

/** The key the keyspace index would hold for the URL in `slot`. */
export function indexKeyOf(
  table: ResidentUrlTable,
  index: ResidentIndexName,
  slot: number,
): PrimaryKey {
  const urlHash = table.urlHashOf(slot);
  const domain = table.domainOf(slot);
  switch (index) {
    case 'due':
      return dueIndexKey(
        domain,
        table.priorityRankOf(slot),
        timeTextOf(table.dueAtMsOf(slot)),
        urlHash,
      );
    case 'revisit':
      return revisitIndexKey(domain, timeTextOf(table.dueAtMsOf(slot)), urlHash);
    case 'waiting':
      return waitingIndexKey(domain, urlHash);
  }
}

/**
 * url_task and its three ordering indexes on an embedded store whose url_task rows are resident
 * (resident-url-task-rows.ts): url_task read from the resident store and written through the
 * store's journal to it; the indexes read from its queues, their writes dropped — the queues
 * follow every url_task the store takes. The frontier above them is unchanged. `rows`: the owner
 * (each url_task write carries its document to it: KeyValueWrite.source), or the bare store (tests
 * of the reads).
 */
export function residentUrlTables(
  keyspace: ServiceKeyspace,
  rows: ResidentUrlTaskRows | ResidentUrlStore,
): UrlTables {
  const store = rows instanceof ResidentUrlStore ? rows : rows.store;
  const index = (name: string, indexName: ResidentIndexName) =>
    keyspace.residentTable(
      name,
      EMPTY_INDEX_ENTRY_CODEC,
      residentIndexReads(store, indexName),
      'derived',
    );
  return {
    urlTasks: keyspace.residentTable(
      'url_task',
      urlTaskCodec,
      residentUrlTaskReads(store),
      'through',
    ),
    dueIndex: index('url_due_index', 'due'),
    revisitIndex: index('url_revisit_index', 'revisit'),
    waitingIndex: index('url_waiting_index', 'waiting'),
    areIndexesDerived: true,
  };
}
