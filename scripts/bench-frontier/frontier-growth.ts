import pino from 'pino';
import { Registry } from 'prom-client';
import { readSettings } from '../../services/common/config/settings';
import { LmdbBackend } from '../../services/common/storage/lmdb-backend';
import type { OrderedKeyValueBackend } from '../../services/common/storage/ordered-key-value-backend';
import { openServiceKeyspace } from '../../services/common/storage/service-keyspace';
import type { ResidentUrlTaskRows } from '../../services/scheduler/frontier/resident/resident-url-task-rows';
import { storageBackendSettingsFromEnvironment } from '../../services/common/storage/open-storage-backend';
import {
  frontierUrlTablesOf,
  openSchedulerStorage,
  residentUrlTasksModeFromEnvironment,
  writingBehindUnlessTold,
} from '../../services/scheduler/open-scheduler-storage';
import { commitModeOf } from '../../services/scheduler/frontier/commit-queue';
import { Frontier } from '../../services/scheduler/frontier/frontier';
import {
  frontierSettingsOf,
  SCHEDULER_SETTINGS,
} from '../../services/scheduler/scheduler-settings';
import { log, type Budget } from './bench-log';
import type { BenchCorpus } from './bench-corpus';

/**
 * The store a stage grows: a backend, and url_task's rows when the store holds them in memory
 * (SCHEDULER_RESIDENT_URL_TASKS=on: opened as the scheduler opens it, openSchedulerStorage — a
 * plain open may not write such a store).
 */
export interface GrowthStorage {
  backend: OrderedKeyValueBackend;
  residentUrlTasks: ResidentUrlTaskRows | undefined;
  close(): Promise<void>;
}

/** A backend whose keyspace holds url_task (TiKV, or LMDB written directly). */
export function keyspaceGrowthStorage(backend: OrderedKeyValueBackend): GrowthStorage {
  return { backend, residentUrlTasks: undefined, close: () => backend.close() };
}

/** The scheduler's LMDB store opened plainly, written directly: url_task in the keyspace. */
export async function openPlainLmdbGrowthStorage(directory: string): Promise<GrowthStorage> {
  return keyspaceGrowthStorage(await LmdbBackend.open(directory));
}

/**
 * The scheduler's LMDB store as a bench grows it: opened as the scheduler process (which inherits
 * this environment) will open it — url_task held in memory where SCHEDULER_RESIDENT_URL_TASKS
 * (`auto` by default) puts it there, written behind unless STORAGE_LMDB_WRITE_BEHIND says not — so
 * the rows grown land where the scheduler reads them, the scheduler runs in the mode it would run
 * in on a store of its own, and a store it marked may be grown again; a plain open, writing
 * directly, with the mode `off`.
 */
export async function openLmdbGrowthStorage(directory: string): Promise<GrowthStorage> {
  const mode = residentUrlTasksModeFromEnvironment(process.env);
  if (mode === 'off') return openPlainLmdbGrowthStorage(directory);
  const settings = writingBehindUnlessTold(
    storageBackendSettingsFromEnvironment('scheduler', {
      ...process.env,
      STORAGE_BACKEND: 'lmdb',
      STORAGE_DATA_DIRECTORY: directory,
    }),
  );
  return openSchedulerStorage(settings, mode, pino({ level: 'silent' }));
}

/**
 * Grows the frontier in the storage `openStorage` opens to `targetSize` URLs through the
 * scheduler's own frontier module (the same rules and admission code as POST /v1/rules and
 * /v1/seeds, without HTTP), while no scheduler process runs on it; then stops it cleanly and
 * closes the storage.
 */
export async function growFrontier(
  openStorage: () => Promise<GrowthStorage>,
  corpus: BenchCorpus,
  fromSize: number,
  targetSize: number,
  budget: Budget,
): Promise<void> {
  const storage = await openStorage();
  try {
    await growFrontierIn(storage, corpus, fromSize, targetSize, budget);
  } finally {
    await storage.close();
  }
}

async function growFrontierIn(
  storage: GrowthStorage,
  corpus: BenchCorpus,
  fromSize: number,
  targetSize: number,
  budget: Budget,
): Promise<void> {
  const { backend } = storage;
  const keyspace = openServiceKeyspace('scheduler', backend);
  const frontier = await Frontier.open({
    keyspace,
    ...frontierUrlTablesOf(keyspace, storage),
    clock: { nowMs: () => Date.now() },
    settings: frontierSettingsOf(readSettings(SCHEDULER_SETTINGS, {}, {})),
    logger: pino({ level: 'silent' }),
    registry: new Registry(),
    probe: undefined,
    commitMode: commitModeOf(backend),
  });
  try {
    if (fromSize === 0) {
      for (let start = 0; start < corpus.domainCount; start += 1000) {
        const end = Math.min(corpus.domainCount, start + 1000);
        await frontier.submitRules(
          Array.from({ length: end - start }, (_, offset) => corpus.ruleOf(start + offset)),
        );
      }
      log(`  ${corpus.domainCount.toLocaleString('en-US')} rules stored`);
    }
    const chunk = 10_000;
    for (let start = fromSize; start < targetSize; start += chunk) {
      budget.assertLeft();
      const seeds = [];
      for (let index = start; index < Math.min(targetSize, start + chunk); index += 1) {
        seeds.push({ url: corpus.urlOf(index) });
      }
      const answer = await frontier.submitSeeds(seeds);
      // A URL may already be in the frontier as a link found in an earlier stage's reports.
      const refused = answer.rejected_list.find((seed) => seed.reject_reason !== 'duplicate_url');
      if (refused !== undefined) throw new Error(`seed refused: ${JSON.stringify(refused)}`);
      if ((start - fromSize) % 100_000 === 0 && start > fromSize) {
        log(`  frontier at ${start.toLocaleString('en-US')} URLs`);
      }
    }
  } finally {
    await frontier.stop();
  }
}
