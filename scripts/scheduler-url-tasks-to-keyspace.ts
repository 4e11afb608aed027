import { join, resolve } from 'node:path';
import { Command } from 'commander';
import pino from 'pino';
import { storageBackendSettingsFromEnvironment } from '../services/common/storage/open-storage-backend';
import { moveUrlTasksToKeyspace } from '../services/scheduler/move-url-tasks-to-keyspace';

/**
 * `npm run scheduler:url-tasks-to-keyspace -- --data-dir <dir>`: moves a stopped scheduler's
 * url_tasks from memory back into LMDB (README, Storage), the way back from
 * SCHEDULER_RESIDENT_URL_TASKS `on` or `auto`. Start the scheduler with
 * SCHEDULER_RESIDENT_URL_TASKS=off afterwards (`auto` keeps the keyspace too, since the store then
 * holds url_tasks in LMDB). Safe to run again after a crash; refused while the scheduler runs.
 */
async function main(): Promise<void> {
  const program = new Command('scheduler:url-tasks-to-keyspace')
    .description("moves a stopped scheduler's url_tasks from memory back into LMDB")
    .option(
      '--data-dir <path>',
      "the scheduler's --data-dir (its store is <path>/scheduler; env DATA_DIR)",
      process.env.DATA_DIR ?? './.data',
    )
    .parse(process.argv);
  const { dataDir } = program.opts<{ dataDir: string }>();
  const storeDirectory = resolve(join(dataDir, 'scheduler'));
  // STORAGE_LMDB_SYNC and STORAGE_LMDB_MAP_SIZE_MIB as the scheduler reads them.
  const settings = storageBackendSettingsFromEnvironment('scheduler', {
    ...process.env,
    STORAGE_BACKEND: 'lmdb',
    STORAGE_DATA_DIRECTORY: storeDirectory,
  });
  if (settings.backendName !== 'lmdb') throw new Error('unreachable: the store is LMDB');
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const moved = await moveUrlTasksToKeyspace(storeDirectory, {
    syncMode: settings.syncMode,
    mapSizeBytes: settings.mapSizeBytes,
    logger,
  });
  logger.info(
    { store_directory: storeDirectory, url_count: moved.movedCount },
    moved.wasResident
      ? 'url_task moved into LMDB: start the scheduler with SCHEDULER_RESIDENT_URL_TASKS=off'
      : 'url_task is in LMDB already: nothing to move',
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
