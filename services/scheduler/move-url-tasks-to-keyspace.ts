import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { LmdbBackend, type LmdbBackendOptions } from '../common/storage/lmdb-backend';
import type { KeyspaceWrite } from '../common/storage/keyspace-types';
import { openServiceKeyspace } from '../common/storage/service-keyspace';
import { journalDirectoryOf } from '../common/storage/write-behind/file-write-journal';
import { claimJournal, releaseJournal } from '../common/storage/write-behind/journal-owner';
import {
  removeSegmentsIn,
  syncDirectory,
} from '../common/storage/write-behind/journal-segment-file';
import {
  residentKeyPrefixOf,
  unmarkResidentJournal,
} from '../common/storage/write-behind/resident-rows';
import type { IndexEntryDocument, UrlTaskDocument } from './frontier/frontier-documents';
import { EMPTY_INDEX_ENTRY, keyspaceUrlTables } from './frontier/frontier-tables';
import { placementOf, type IndexPlacement } from './frontier/index-placement';
import { readResidentSnapshot } from './frontier/resident/resident-snapshot-file';
import { ResidentUrlStore } from './frontier/resident/resident-url-store';
import { residentUrlTaskSnapshotPathOf } from './frontier/resident/resident-url-task-rows';
import { openSchedulerStorage } from './open-scheduler-storage';

type IndexName = IndexPlacement['indexName'];
const INDEX_NAMES: readonly IndexName[] = ['due', 'revisit', 'waiting'];

/** url_tasks written per batch while they move back. */
const BATCH_SIZE = 5_000;

export interface MovedBack {
  /** False when the store held url_task in the keyspace already (nothing was done). */
  wasResident: boolean;
  movedCount: number;
}

/**
 * The way back from url_task held in memory (docs/resident-frontier.md, step 6): writes every
 * url_task of a stopped scheduler's store, and the index entries the keyspace derives from each
 * (index-placement.ts), into LMDB, and leaves a store that every opener — SCHEDULER_RESIDENT_URL_TASKS
 * `off`, `auto`, a script — reads as one that never held them in memory. A running scheduler
 * refuses it (JournalInUseError), as it refuses any second writer.
 *
 * Each step leaves a store a scheduler opens whole, so a crash anywhere is mended by running it
 * again:
 *   1. Opened and closed as the resident scheduler does: the journal replayed, everything else
 *      checkpointed into LMDB, a last snapshot holding every url_task.
 *   2. The snapshot's url_tasks and their index entries written into LMDB and synced — rows a
 *      resident open never reads (it reads the snapshot), so until step 3 they change nothing.
 *   3. The journal's segments deleted (all covered: the rows by the checkpoint, url_task by the
 *      snapshot), then the mark that says the store's url_task is resident — from here the store
 *      is a keyspace store — then the snapshot. A snapshot left by a crash between the last two is
 *      never read: the store holds its url_tasks in LMDB, so `auto` keeps the keyspace and `on`
 *      writes a new snapshot from LMDB before reading one. A store without url_tasks deletes its
 *      snapshot first instead, so that none is ever left beside an empty keyspace.
 */
export async function moveUrlTasksToKeyspace(
  storeDirectory: string,
  options: LmdbBackendOptions & { logger: Logger },
): Promise<MovedBack> {
  const journalDirectory = journalDirectoryOf(storeDirectory);
  if (residentKeyPrefixOf(journalDirectory) === undefined) {
    return { wasResident: false, movedCount: 0 };
  }
  const lmdbOptions = { syncMode: options.syncMode, mapSizeBytes: options.mapSizeBytes };
  const storage = await openSchedulerStorage(
    { backendName: 'lmdb', dataDirectory: storeDirectory, isWriteBehind: true, ...lmdbOptions },
    'on',
    options.logger,
  );
  await storage.close();

  claimJournal(journalDirectory);
  try {
    const snapshotPath = residentUrlTaskSnapshotPathOf(storeDirectory);
    // No snapshot: a store marked before its first url_task, with none since.
    const tasks = existsSync(snapshotPath)
      ? (await readResidentSnapshot(snapshotPath)).store
      : new ResidentUrlStore();
    const taskCount = tasks.size;
    const lmdb = await LmdbBackend.open(storeDirectory, {
      ...lmdbOptions,
      // Claimed above; replayed and closed clean in step 1, so there is nothing to replay.
      isJournalClaimedByCaller: true,
      isJournalReplayedByCaller: true,
    });
    try {
      const tables = keyspaceUrlTables(openServiceKeyspace('scheduler', lmdb));
      const indexTables = {
        due: tables.dueIndex,
        revisit: tables.revisitIndex,
        waiting: tables.waitingIndex,
      };
      for (let first = 0; first < taskCount; first += BATCH_SIZE) {
        const end = Math.min(first + BATCH_SIZE, taskCount);
        const documents: Array<KeyspaceWrite<UrlTaskDocument>> = [];
        const entries: Record<IndexName, Array<KeyspaceWrite<IndexEntryDocument>>> = {
          due: [],
          revisit: [],
          waiting: [],
        };
        for (let slot = first; slot < end; slot += 1) {
          const task = tasks.read(slot);
          documents.push({ primaryKey: task.url_hash, value: task });
          const placement = placementOf(task);
          if (placement !== undefined) {
            entries[placement.indexName].push({
              primaryKey: placement.key,
              value: EMPTY_INDEX_ENTRY,
            });
          }
        }
        await Promise.all([
          tables.urlTasks.putMany(documents),
          ...INDEX_NAMES.map((name) => indexTables[name].putMany(entries[name])),
        ]);
        options.logger.info(
          { url_count: end, total_count: taskCount },
          'url_task written into LMDB',
        );
      }
      await lmdb.flushed();
    } finally {
      await lmdb.close();
    }

    await removeSegmentsIn(journalDirectory);
    if (taskCount === 0) await removeSnapshot(snapshotPath);
    await unmarkResidentJournal(journalDirectory);
    await removeSnapshot(snapshotPath);
    return { wasResident: true, movedCount: taskCount };
  } finally {
    releaseJournal(journalDirectory);
  }
}

async function removeSnapshot(path: string): Promise<void> {
  if (!existsSync(path)) return;
  rmSync(path);
  await syncDirectory(dirname(path));
}
