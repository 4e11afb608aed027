import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import {
  openStorageBackend,
  type StorageBackendSettings,
} from '../common/storage/open-storage-backend';
import { resourceUseSince } from '../common/process/resource-use';
import type { OrderedKeyValueBackend } from '../common/storage/ordered-key-value-backend';
import { residentJournalErrorOf } from '../common/storage/write-behind/resident-rows';
import type { ServiceKeyspace } from '../common/storage/service-keyspace';
import type { FrontierDependencies } from './frontier/assemble-frontier';
import { holdsUrlTasksInLmdb } from './frontier/resident/migrate-url-tasks-to-resident';
import { openResidentUrlTaskStore } from './frontier/resident/open-resident-url-task-store';
import { residentDueQueueSlots } from './frontier/resident/resident-due-queue-slots';
import { residentUrlTables } from './frontier/resident/resident-table-reads';
import { residentUrlTaskCensus } from './frontier/resident/resident-url-task-census';
import type { ResidentUrlTaskRows } from './frontier/resident/resident-url-task-rows';

/** The scheduler's store, and its url_task rows when they are held in memory. */
export interface SchedulerStorage {
  backend: OrderedKeyValueBackend;
  /** The resident url_task rows (docs/resident-frontier.md); undefined when the keyspace has them. */
  residentUrlTasks: ResidentUrlTaskRows | undefined;
  /** url_tasks this open moved from LMDB into memory (the first resident open of a store). */
  migratedUrlTaskCount: number;
  /** A resident open's parts, in ms, logged as snake_case fields (ResidentUrlTaskStore). */
  openedInMs?: Record<string, number>;
  /** Closes the store — a resident one after a last snapshot, so the next start reads no journal. */
  close(): Promise<void>;
}

/**
 * The frontier writes a few small rows per URL at random places of a large store: on LMDB it
 * writes behind a journal unless STORAGE_LMDB_WRITE_BEHIND says otherwise (README, Scheduler).
 */
export function writingBehindUnlessTold(settings: StorageBackendSettings): StorageBackendSettings {
  return settings.backendName === 'lmdb'
    ? { ...settings, isWriteBehind: settings.isWriteBehind ?? true }
    : settings;
}

/**
 * SCHEDULER_RESIDENT_URL_TASKS: `on` holds url_task and its ordering indexes in memory —
 * journalled with the rest of each batch, snapshotted, never checkpointed into LMDB — on the
 * embedded store written behind; `off` keeps them in the keyspace; `auto` (the default) holds them
 * in memory wherever that moves no existing url_task (chooseResidentUrlTasks).
 */
export type ResidentUrlTasksMode = 'on' | 'off' | 'auto';

const RESIDENT_URL_TASKS_MODES: readonly ResidentUrlTasksMode[] = ['on', 'off', 'auto'];

export function residentUrlTasksModeFromEnvironment(
  environment: NodeJS.ProcessEnv,
): ResidentUrlTasksMode {
  const value = environment.SCHEDULER_RESIDENT_URL_TASKS?.trim();
  if (!value) return 'auto';
  const mode = RESIDENT_URL_TASKS_MODES.find((candidate) => candidate === value);
  if (mode !== undefined) return mode;
  throw new Error(`SCHEDULER_RESIDENT_URL_TASKS must be "on", "off" or "auto", got "${value}"`);
}

/** Where a scheduler's open of its store puts url_task, and why (logged at start). */
export interface ResidentUrlTasksChoice {
  isResident: boolean;
  reason: string;
}

/**
 * Resolves `mode` for the store `settings` open. `auto` never moves a store by surprise: the
 * first resident open moves a store's url_tasks out of LMDB for good (migrateUrlTasksToResident),
 * so a store that holds some there stays as it is until its operator says `on`. A new or empty
 * store goes resident, and so does one already resident; TiKV and a store written through keep
 * url_task in the keyspace (only the embedded store written behind can hold it in memory).
 */
export async function chooseResidentUrlTasks(
  settings: StorageBackendSettings,
  mode: ResidentUrlTasksMode,
): Promise<ResidentUrlTasksChoice> {
  if (mode === 'off') return { isResident: false, reason: 'SCHEDULER_RESIDENT_URL_TASKS=off' };
  const canHoldResident = settings.backendName === 'lmdb' && settings.isWriteBehind === true;
  if (mode === 'on') {
    if (canHoldResident) return { isResident: true, reason: 'SCHEDULER_RESIDENT_URL_TASKS=on' };
    throw new Error(
      'SCHEDULER_RESIDENT_URL_TASKS=on needs the embedded store written behind ' +
        '(STORAGE_BACKEND=lmdb, STORAGE_LMDB_WRITE_BEHIND on): on TiKV url_task stays in the keyspace',
    );
  }
  if (settings.backendName !== 'lmdb') {
    return { isResident: false, reason: 'on TiKV url_task stays in the keyspace' };
  }
  if (!canHoldResident) {
    return {
      isResident: false,
      reason: 'the store is written through (STORAGE_LMDB_WRITE_BEHIND=off)',
    };
  }
  if (residentJournalErrorOf(settings.dataDirectory) !== undefined) {
    return { isResident: true, reason: 'the store holds url_task in memory already' };
  }
  if (
    await holdsUrlTasksInLmdb(settings.dataDirectory, {
      syncMode: settings.syncMode,
      mapSizeBytes: settings.mapSizeBytes,
    })
  ) {
    return {
      isResident: false,
      reason: 'the store holds url_task in LMDB (SCHEDULER_RESIDENT_URL_TASKS=on moves it)',
    };
  }
  return { isResident: true, reason: 'the store holds no url_task in LMDB' };
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

/**
 * Opens the scheduler's store with url_task where `mode` puts it, and logs where and why, and how
 * long the open took — a resident store's includes reading its snapshot and replaying its journal,
 * part of the scheduler's start-up as much as the frontier's rebuild after it.
 */
export async function openSchedulerStorage(
  settings: StorageBackendSettings,
  mode: ResidentUrlTasksMode,
  logger: Logger,
): Promise<SchedulerStorage> {
  const startedAtMs = performance.now();
  const resourceUseBefore = process.resourceUsage();
  const choice = await chooseResidentUrlTasks(settings, mode);
  const storage = await openStorageAsChosen(settings, choice, logger);
  logger.info(
    {
      is_resident: choice.isResident,
      reason: choice.reason,
      elapsed_ms: Math.round(performance.now() - startedAtMs),
      ...storage.openedInMs,
      ...resourceUseSince(resourceUseBefore),
    },
    'scheduler storage opened',
  );
  return storage;
}

async function openStorageAsChosen(
  settings: StorageBackendSettings,
  choice: ResidentUrlTasksChoice,
  logger: Logger,
): Promise<SchedulerStorage> {
  // (The choice is resident only on LMDB; the second test says so to the types.)
  if (!choice.isResident || settings.backendName !== 'lmdb') {
    if (settings.backendName === 'lmdb') assertUrlTasksInKeyspace(settings.dataDirectory);
    const backend = await openStorageBackend(settings);
    return {
      backend,
      residentUrlTasks: undefined,
      migratedUrlTaskCount: 0,
      close: () => backend.close(),
    };
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
    openedInMs: {
      migration_ms: store.openedInMs.migration,
      snapshot_read_ms: store.openedInMs.snapshotRead,
      store_open_ms: store.openedInMs.storeOpen,
    },
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
 * tables, heaps and columns when it holds them (docs/resident-frontier.md), nothing — the
 * keyspace's own tables — otherwise.
 */
export function frontierUrlTablesOf(
  keyspace: ServiceKeyspace,
  storage: Pick<SchedulerStorage, 'residentUrlTasks'>,
): Pick<FrontierDependencies, 'urlTables' | 'dueQueueSlots' | 'urlTaskCensus'> {
  const rows = storage.residentUrlTasks;
  if (rows === undefined) return {};
  return {
    urlTables: residentUrlTables(keyspace, rows),
    dueQueueSlots: residentDueQueueSlots(rows.store),
    urlTaskCensus: residentUrlTaskCensus(rows.store),
  };
}
