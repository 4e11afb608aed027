import type { Logger } from 'pino';
import {
  openStorageBackend,
  type StorageBackendSettings,
} from '../common/storage/open-storage-backend';
import type { OrderedKeyValueBackend } from '../common/storage/ordered-key-value-backend';
import { residentJournalErrorOf } from '../common/storage/write-behind/resident-rows';
import type { ServiceKeyspace } from '../common/storage/service-keyspace';
import type { FrontierDependencies } from './frontier/assemble-frontier';
import { openResidentUrlTaskStore } from './frontier/resident/open-resident-url-task-store';
import { residentDueQueueSlots } from './frontier/resident/resident-due-queue-slots';
import { residentUrlTables } from './frontier/resident/resident-table-reads';
import type { ResidentUrlTaskRows } from './frontier/resident/resident-url-task-rows';

/** The scheduler's store, and its url_task rows when they are held in memory. */
export interface SchedulerStorage {
  backend: OrderedKeyValueBackend;
  /** The resident url_task rows (docs/resident-frontier.md); undefined when the keyspace has them. */
  residentUrlTasks: ResidentUrlTaskRows | undefined;
  /** url_tasks this open moved from LMDB into memory (the first resident open of a store). */
  migratedUrlTaskCount: number;
  /** Closes the store — a resident one after a last snapshot, so the next start reads no journal. */
  close(): Promise<void>;
}

/**
 * Reads SCHEDULER_RESIDENT_URL_TASKS: `on` holds url_task and its ordering indexes in memory —
 * journalled with the rest of each batch, snapshotted, never checkpointed into LMDB — on the
 * embedded store written behind; `off` (the default for now) keeps them in the keyspace.
 */
export function isResidentUrlTasksFromEnvironment(environment: NodeJS.ProcessEnv): boolean {
  const value = environment.SCHEDULER_RESIDENT_URL_TASKS?.trim();
  if (!value) return false;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new Error(`SCHEDULER_RESIDENT_URL_TASKS must be "on" or "off", got "${value}"`);
}

/**
 * A store that held url_task in memory keeps it in its snapshot and journal, not in LMDB: opened
 * without it, the scheduler would serve an empty frontier, and its writes would be undone by the
 * journal's replay at the next resident open. Refused before anything is opened, written behind
 * or not (the write-behind store refuses it too, as LmdbBackend refuses its writes).
 */
function assertUrlTasksInKeyspace(dataDirectory: string): void {
  const refusal = residentJournalErrorOf(dataDirectory);
  if (refusal !== undefined) throw refusal;
}

export async function openSchedulerStorage(
  settings: StorageBackendSettings,
  isResidentUrlTasks: boolean,
  logger: Logger,
): Promise<SchedulerStorage> {
  if (!isResidentUrlTasks) {
    if (settings.backendName === 'lmdb') assertUrlTasksInKeyspace(settings.dataDirectory);
    const backend = await openStorageBackend(settings);
    return {
      backend,
      residentUrlTasks: undefined,
      migratedUrlTaskCount: 0,
      close: () => backend.close(),
    };
  }
  if (settings.backendName !== 'lmdb' || settings.isWriteBehind !== true) {
    throw new Error(
      'SCHEDULER_RESIDENT_URL_TASKS=on needs the embedded store written behind ' +
        '(STORAGE_BACKEND=lmdb, STORAGE_LMDB_WRITE_BEHIND on): on TiKV url_task stays in the keyspace',
    );
  }
  const store = await openResidentUrlTaskStore(settings.dataDirectory, {
    syncMode: settings.syncMode,
    mapSizeBytes: settings.mapSizeBytes,
    onSnapshotError: (error) =>
      logger.error({ err: error }, 'resident url_task snapshot failed (tried again later)'),
    onSnapshotWritten: ({ journalSequence, slotCount, byteCount, seconds }) =>
      logger.info(
        {
          url_count: slotCount,
          byte_count: byteCount,
          journal_sequence: journalSequence,
          elapsed_ms: Math.round(seconds * 1000),
        },
        'resident url_task snapshot written',
      ),
  });
  return {
    backend: store.backend,
    residentUrlTasks: store.urlTasks,
    migratedUrlTaskCount: store.migratedCount,
    close: async () => {
      try {
        if (store.urlTasks.snapshots.hasUncoveredRows) await store.urlTasks.snapshots.snapshotNow();
      } catch (error) {
        // The journal still holds what the snapshot would have covered: the next start replays it.
        logger.error({ err: error }, 'resident url_task snapshot at stop failed');
      } finally {
        await store.close();
      }
    },
  };
}

/**
 * What the frontier on `storage` reads url_task and its due queues from: the resident store's
 * tables and heaps when it holds them (docs/resident-frontier.md), nothing — the keyspace's own
 * tables — otherwise.
 */
export function frontierUrlTablesOf(
  keyspace: ServiceKeyspace,
  storage: Pick<SchedulerStorage, 'residentUrlTasks'>,
): Pick<FrontierDependencies, 'urlTables' | 'dueQueueSlots'> {
  const rows = storage.residentUrlTasks;
  if (rows === undefined) return {};
  return {
    urlTables: residentUrlTables(keyspace, rows),
    dueQueueSlots: residentDueQueueSlots(rows.store),
  };
}
