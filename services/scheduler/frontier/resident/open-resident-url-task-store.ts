import {
  WriteBehindLmdbBackend,
  type WriteBehindOptions,
} from '../../../common/storage/write-behind/write-behind-lmdb-backend';
import { ResidentUrlTaskRows, type ResidentUrlTaskOptions } from './resident-url-task-rows';

/** The scheduler's embedded store with its url_task rows resident, and how to close both. */
export interface ResidentUrlTaskStore {
  backend: WriteBehindLmdbBackend;
  urlTasks: ResidentUrlTaskRows;
  /** Stops snapshots (waiting for the one under way), then closes the store. */
  close(): Promise<void>;
}

/**
 * Opens the write-behind store in `directory` with its url_task rows resident: the newest
 * snapshot is read first, the store's open replays the journal since it into the rows, and
 * snapshots may begin once the store is open (they flush it before they count).
 */
export async function openResidentUrlTaskStore(
  directory: string,
  options: Omit<WriteBehindOptions, 'residentRows'> & ResidentUrlTaskOptions = {},
): Promise<ResidentUrlTaskStore> {
  const urlTasks = await ResidentUrlTaskRows.load(directory, options);
  const backend = await WriteBehindLmdbBackend.open(directory, {
    ...options,
    residentRows: urlTasks,
  });
  urlTasks.snapshots.start(() => backend.flushed());
  return {
    backend,
    urlTasks,
    close: async () => {
      await urlTasks.snapshots.close();
      await backend.close();
    },
  };
}
