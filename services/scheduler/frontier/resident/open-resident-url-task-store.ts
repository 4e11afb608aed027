import { performance } from 'node:perf_hooks';
import {
  WriteBehindLmdbBackend,
  type WriteBehindOptions,
} from '../../../common/storage/write-behind/write-behind-lmdb-backend';
import { migrateUrlTasksToResident } from './migrate-url-tasks-to-resident';
import {
  residentUrlTaskSnapshotPathOf,
  ResidentUrlTaskRows,
  type ResidentUrlTaskOptions,
} from './resident-url-task-rows';

/** The scheduler's embedded store with its url_task rows resident, and how to close both. */
export interface ResidentUrlTaskStore {
  backend: WriteBehindLmdbBackend;
  urlTasks: ResidentUrlTaskRows;
  /** url_tasks this open moved from LMDB into the first snapshot (a store opened resident once). */
  migratedCount: number;
  /** Where the open's time went, in ms: the move, the snapshot's read, the store's open and replay. */
  openedInMs: { migration: number; snapshotRead: number; storeOpen: number };
  /** Stops snapshots (waiting for the one under way), then closes the store. */
  close(): Promise<void>;
}

/**
 * Opens the write-behind store in `directory` with its url_task rows resident: url_tasks a store
 * still holds in LMDB are moved into the first snapshot (migrateUrlTasksToResident), the newest
 * snapshot is read, the store's open replays the journal since it into the rows, and snapshots may
 * begin once the store is open (they flush it before they count).
 */
export async function openResidentUrlTaskStore(
  directory: string,
  options: Omit<WriteBehindOptions, 'residentRows'> & ResidentUrlTaskOptions = {},
): Promise<ResidentUrlTaskStore> {
  const startedAt = performance.now();
  const migratedCount = await migrateUrlTasksToResident(
    directory,
    residentUrlTaskSnapshotPathOf(directory),
    { syncMode: options.syncMode, mapSizeBytes: options.mapSizeBytes },
  );
  const migratedAt = performance.now();
  const urlTasks = await ResidentUrlTaskRows.load(directory, options);
  const loadedAt = performance.now();
  const backend = await WriteBehindLmdbBackend.open(directory, {
    ...options,
    residentRows: urlTasks,
  });
  urlTasks.snapshots.start(() => backend.flushed());
  return {
    backend,
    urlTasks,
    migratedCount,
    openedInMs: {
      migration: Math.round(migratedAt - startedAt),
      snapshotRead: Math.round(loadedAt - migratedAt),
      storeOpen: Math.round(performance.now() - loadedAt),
    },
    close: async () => {
      await urlTasks.snapshots.close();
      await backend.close();
    },
  };
}
