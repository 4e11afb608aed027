import { journalDirectoryOf } from '../../../common/storage/write-behind/file-write-journal';
import { residentKeyPrefixOf } from '../../../common/storage/write-behind/resident-rows';
import { LmdbBackend, type LmdbBackendOptions } from '../../../common/storage/lmdb-backend';
import { prefixEnd } from '../../../common/storage/key-range';
import type { PrimaryKey } from '../../../common/storage/primary-key';
import { openServiceKeyspace } from '../../../common/storage/service-keyspace';
import { TableLocation } from '../../../common/storage/storage-key';
import { MAX_SCAN_LIMIT } from '../../../common/storage/table-storage';
import { urlTaskCodec } from '../frontier-tables';
import { writeResidentSnapshot } from './resident-snapshot-file';
import { ResidentUrlStore } from './resident-url-store';

/** url_task and the indexes derived from it: what a resident store holds instead of LMDB. */
const MIGRATED_TABLES = ['url_task', 'url_due_index', 'url_revisit_index', 'url_waiting_index'];

function urlTaskTableOf(lmdb: LmdbBackend) {
  return openServiceKeyspace('scheduler', lmdb).table('url_task', urlTaskCodec);
}

/**
 * Whether the store in `directory` (created if missing) holds url_task rows in LMDB — after the
 * plain open's replay of a journal left there, so a row only journalled counts too. False for a
 * store whose url_task is resident already (LMDB holds none there).
 */
export async function holdsUrlTasksInLmdb(
  directory: string,
  options: LmdbBackendOptions,
): Promise<boolean> {
  if (residentKeyPrefixOf(journalDirectoryOf(directory)) !== undefined) return false;
  const lmdb = await LmdbBackend.open(directory, options);
  try {
    const page = await urlTaskTableOf(lmdb).scan({ limit: 1 });
    return page.rows.length > 0;
  } finally {
    await lmdb.close();
  }
}

/**
 * Moves a store's url_task rows into a resident snapshot when it is first opened with them
 * resident (docs/resident-frontier.md, Migration): every url_task read from LMDB into a resident
 * store, written as the first snapshot (covering no journal record: the journal is empty after
 * the plain open's replay), then url_task and its three index tables deleted from LMDB. Runs
 * before the journal is marked for resident rows, which is what says it is done: a crash before
 * that runs it again, from rows still there (the snapshot is written again whole; the deletes
 * come only after it is synced). Resolves to the number of url_tasks moved.
 */
export async function migrateUrlTasksToResident(
  directory: string,
  snapshotPath: string,
  options: LmdbBackendOptions,
): Promise<number> {
  if (residentKeyPrefixOf(journalDirectoryOf(directory)) !== undefined) return 0;
  const lmdb = await LmdbBackend.open(directory, options);
  try {
    const store = new ResidentUrlStore();
    const urlTasks = urlTaskTableOf(lmdb);
    let after: PrimaryKey | undefined;
    do {
      const page = await urlTasks.scan({ after, limit: MAX_SCAN_LIMIT });
      for (const { value } of page.rows) store.put(value);
      after = page.nextAfter ?? undefined;
    } while (after !== undefined);
    if (store.size === 0) return 0;
    await writeResidentSnapshot(store, snapshotPath, { journalSequence: 0 });
    for (const table of MIGRATED_TABLES) {
      const { prefixBytes: tablePrefix } = new TableLocation('scheduler', table);
      await lmdb.deleteRange({ start: tablePrefix, end: prefixEnd(tablePrefix) });
    }
    await lmdb.flushed();
    return store.size;
  } finally {
    await lmdb.close();
  }
}
