import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { journalDirectoryOf } from '../common/storage/write-behind/file-write-journal';
import { JournalInUseError } from '../common/storage/write-behind/journal-owner';
import { residentKeyPrefixOf } from '../common/storage/write-behind/resident-rows';
import { residentUrlTaskSnapshotPathOf } from './frontier/resident/resident-url-task-rows';
import { moveUrlTasksToKeyspace } from './move-url-tasks-to-keyspace';
import { ruleFor } from './testing/contract-fixtures';
import { leaseAndReportWithLinks, seedUrls, urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';
import { lmdbRowCountOf } from './testing/store-rows';

const logger = pino({ level: 'silent' });

/**
 * The way back from url_task held in memory (`npm run scheduler:url-tasks-to-keyspace`): every
 * url_task and its index entries written into LMDB, the store left as one that never held them in
 * memory — and a frontier that answers as the resident one did.
 */
describe('url_task moved back into LMDB', () => {
  const clock = new ManualClock();
  const running: TestScheduler[] = [];
  const directories: string[] = [];
  afterEach(async () => {
    for (const scheduler of running.splice(0)) await scheduler.stop();
    for (const directory of directories.splice(0))
      rmSync(directory, { recursive: true, force: true });
  });

  async function start(
    dataDirectory: string | undefined,
    resident: 'on' | 'off' | 'auto',
  ): Promise<TestScheduler> {
    const scheduler = await startTestScheduler({
      clock,
      dataDirectory,
      flags: ['--domain-in-flight-cap', '10'],
      environment: { SCHEDULER_RESIDENT_URL_TASKS: resident },
    });
    running.push(scheduler);
    return scheduler;
  }

  async function stop(scheduler: TestScheduler): Promise<string> {
    running.splice(running.indexOf(scheduler), 1);
    await scheduler.stop({ keepData: true });
    directories.push(scheduler.dataDirectory);
    return scheduler.dataDirectory;
  }

  /** A copy of a stopped scheduler's data directory, to run the same store two ways. */
  function copyOf(dataDirectory: string): string {
    const copy = mkdtempSync(join(tmpdir(), 'scheduler-moved-back-'));
    directories.push(copy);
    cpSync(dataDirectory, copy, { recursive: true });
    return copy;
  }

  /** The url_hashes a fresh worker is leased, in the order given. */
  async function leasedHashes(scheduler: TestScheduler): Promise<string[]> {
    const lease = await scheduler.client.leaseTasks({ worker_id: 'w-after', task_count: 50 });
    return lease.task_list.map((task) => task.url_hash);
  }

  it('writes every url_task and its index entries into LMDB, and the keyspace serves them the same', async () => {
    const resident = await start(undefined, 'on');
    const { client } = resident;
    await client.submitRules({ rule_list: [ruleFor('news.example'), ruleFor('blog.example')] });
    // Queued, leased, done, links found, and URLs of a domain without a rule (waiting).
    await client.submitSeeds({
      seed_list: seedUrls(['news.example', 'blog.example', 'norule.example'], 4),
    });
    await leaseAndReportWithLinks(client, 'w1', 3);
    await client.leaseTasks({ worker_id: 'w2', task_count: 2 });
    const before = await urlCounts(client);
    expect(before).toMatchObject({ done: 3, leased: 2, waiting_for_rule: 4 });
    const dataDirectory = await stop(resident);
    const storeDirectory = join(dataDirectory, 'scheduler');
    const reference = copyOf(dataDirectory);

    expect(await moveUrlTasksToKeyspace(storeDirectory, { logger })).toEqual({
      wasResident: true,
      movedCount: 15,
    });
    expect(residentKeyPrefixOf(journalDirectoryOf(storeDirectory))).toBeUndefined();
    expect(existsSync(residentUrlTaskSnapshotPathOf(storeDirectory))).toBe(false);
    expect(await lmdbRowCountOf(storeDirectory, 'url_task')).toBe(15);
    expect(await lmdbRowCountOf(storeDirectory, 'url_waiting_index')).toBe(4);
    // Once more: nothing left to move.
    expect(await moveUrlTasksToKeyspace(storeDirectory, { logger })).toEqual({
      wasResident: false,
      movedCount: 0,
    });

    // `off` is no longer refused, and `auto` now keeps the keyspace: its url_tasks are in LMDB.
    const keyspace = await start(dataDirectory, 'auto');
    const metrics = await (await fetch(`${keyspace.url}/metrics`)).text();
    expect(metrics).not.toMatch(/^scheduler_resident_url_task_count/m);
    expect(await urlCounts(keyspace.client)).toEqual(before);
    // The index entries are there: the keyspace's leases are the resident store's.
    const fromReference = await start(reference, 'on');
    const expected = await leasedHashes(fromReference);
    expect(expected.length).toBeGreaterThan(0);
    expect(await leasedHashes(keyspace)).toEqual(expected);
  });

  it('leaves a store without url_tasks unmarked, with no snapshot', async () => {
    const dataDirectory = await stop(await start(undefined, 'on'));
    const storeDirectory = join(dataDirectory, 'scheduler');
    expect(residentKeyPrefixOf(journalDirectoryOf(storeDirectory))).toBeDefined();
    expect(await moveUrlTasksToKeyspace(storeDirectory, { logger })).toEqual({
      wasResident: true,
      movedCount: 0,
    });
    expect(residentKeyPrefixOf(journalDirectoryOf(storeDirectory))).toBeUndefined();
    expect(existsSync(residentUrlTaskSnapshotPathOf(storeDirectory))).toBe(false);
    const keyspace = await start(dataDirectory, 'off');
    await keyspace.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await keyspace.client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
    expect(await urlCounts(keyspace.client)).toMatchObject({ queued: 2 });
  });

  it('is refused while a scheduler runs on the store, which it leaves as it was', async () => {
    const scheduler = await start(undefined, 'on');
    await scheduler.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await scheduler.client.submitSeeds({ seed_list: seedUrls(['news.example'], 2) });
    const storeDirectory = join(scheduler.dataDirectory, 'scheduler');
    await expect(moveUrlTasksToKeyspace(storeDirectory, { logger })).rejects.toThrow(
      JournalInUseError,
    );
    expect(residentKeyPrefixOf(journalDirectoryOf(storeDirectory))).toBeDefined();
    expect(await urlCounts(scheduler.client)).toMatchObject({ queued: 2 });
  });
});
