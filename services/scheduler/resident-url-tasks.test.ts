import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { residentUrlTaskSnapshotPathOf } from './frontier/resident/resident-url-task-rows';
import { ruleFor } from './testing/contract-fixtures';
import { leaseAndReportWithLinks, seedUrls, urlCounts } from './testing/lease-helpers';
import { ManualClock } from './testing/manual-clock';
import { startTestScheduler, type TestScheduler } from './testing/scheduler-test-harness';
import { lmdbRowCountOf } from './testing/store-rows';

/**
 * url_task and its indexes held in memory, journalled and snapshotted (docs/resident-frontier.md):
 * the default on LMDB, where the service suites run (and again with url_task in the keyspace,
 * `npm run test:keyspace-frontier`). This suite checks what only this mode has — where `auto` puts
 * a store's url_tasks, their move from an existing store, where they live afterwards, and the way
 * back refused.
 */
describe('url_task held in memory', () => {
  const clock = new ManualClock();
  let scheduler: TestScheduler | undefined;
  let dataDirectory: string | undefined;
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = undefined;
    dataDirectory = undefined;
  });

  async function start(
    resident: 'on' | 'off' | 'auto',
    environment: Record<string, string> = {},
  ): Promise<TestScheduler> {
    scheduler = await startTestScheduler({
      clock,
      dataDirectory,
      flags: ['--domain-in-flight-cap', '10'],
      environment: { SCHEDULER_RESIDENT_URL_TASKS: resident, ...environment },
    });
    dataDirectory = scheduler.dataDirectory;
    return scheduler;
  }

  async function stop(): Promise<void> {
    await scheduler?.stop({ keepData: true });
    scheduler = undefined;
  }

  it('moves a store’s url_tasks into memory once, serves them the same, and refuses to go back', async () => {
    const { client } = await start('off');
    await client.submitRules({ rule_list: [ruleFor('news.example'), ruleFor('blog.example')] });
    await client.submitSeeds({ seed_list: seedUrls(['news.example', 'blog.example'], 4) });
    const lease = await leaseAndReportWithLinks(client, 'w1', 3);
    const before = await urlCounts(client);
    expect(before).toMatchObject({ done: 3, queued: 8 });
    await stop();
    const storeDirectory = join(dataDirectory as string, 'scheduler');
    expect(await lmdbRowCountOf(storeDirectory, 'url_task')).toBe(11);

    const resident = await start('on');
    expect(await urlCounts(resident.client)).toEqual(before);
    const metrics = await (await fetch(`${resident.url}/metrics`)).text();
    expect(metrics).toMatch(/^scheduler_resident_url_task_count 11$/m);
    // The move wrote the first snapshot: only start-up's own few records came after it.
    const uncovered = Number(
      /^scheduler_resident_uncovered_record_count (\d+)$/m.exec(metrics)?.[1],
    );
    expect(uncovered).toBeLessThan(10);
    // The five seeds still queued (the links found wait their turn, as on any store).
    const leased = await resident.client.leaseTasks({ worker_id: 'w2', task_count: 50 });
    const done = new Set(lease.task_list.map((task) => task.url_hash));
    expect(leased.task_list).toHaveLength(5);
    expect(leased.task_list.filter((task) => done.has(task.url_hash))).toEqual([]);
    await stop();
    // In the snapshot written at the stop, no longer in LMDB — nor their index entries.
    expect(existsSync(residentUrlTaskSnapshotPathOf(storeDirectory))).toBe(true);
    for (const table of ['url_task', 'url_due_index', 'url_revisit_index']) {
      expect({ table, rows: await lmdbRowCountOf(storeDirectory, table) }).toEqual({
        table,
        rows: 0,
      });
    }

    // Without them the store would serve an empty frontier: refused, with the reason.
    await expect(start('off')).rejects.toThrow(/SCHEDULER_RESIDENT_URL_TASKS=on/);
    // Written to directly, too: the journal's next replay would also undo what it wrote.
    await expect(start('off', { STORAGE_LMDB_WRITE_BEHIND: 'off' })).rejects.toThrow(
      /SCHEDULER_RESIDENT_URL_TASKS=on/,
    );
    const again = await start('on');
    expect(await urlCounts(again.client)).toMatchObject({ done: 3, queued: 3, leased: 5 });
  });

  /** Whether the running scheduler holds url_task in memory (its resident store's metrics). */
  async function isResident(running: TestScheduler): Promise<boolean> {
    const metrics = await (await fetch(`${running.url}/metrics`)).text();
    return /^scheduler_resident_url_task_count \d+$/m.test(metrics);
  }

  async function seedThreeUrls(running: TestScheduler): Promise<void> {
    await running.client.submitRules({ rule_list: [ruleFor('news.example')] });
    await running.client.submitSeeds({ seed_list: seedUrls(['news.example'], 3) });
  }

  it('auto holds a new store’s url_tasks in memory and leaves an existing store’s in LMDB', async () => {
    // A new store: resident, nothing of url_task in LMDB after a stop.
    const fresh = await start('auto');
    expect(await isResident(fresh)).toBe(true);
    await seedThreeUrls(fresh);
    await stop();
    const freshStore = join(dataDirectory as string, 'scheduler');
    expect(await lmdbRowCountOf(freshStore, 'url_task')).toBe(0);
    expect(existsSync(residentUrlTaskSnapshotPathOf(freshStore))).toBe(true);
    // Already resident: auto reopens it so, with its URLs.
    const reopened = await start('auto');
    expect(await isResident(reopened)).toBe(true);
    expect(await urlCounts(reopened.client)).toMatchObject({ queued: 3 });
    await stop();
    // Written through, the store cannot hold url_task in memory, and may not drop what it holds.
    await expect(start('auto', { STORAGE_LMDB_WRITE_BEHIND: 'off' })).rejects.toThrow(
      /STORAGE_LMDB_WRITE_BEHIND on/,
    );

    // An existing store with url_task in LMDB stays so: no move its operator did not ask for.
    dataDirectory = undefined;
    const seeded = await start('off');
    await seedThreeUrls(seeded);
    await stop();
    const keyspaceStore = join(seeded.dataDirectory, 'scheduler');
    const kept = await start('auto');
    expect(await isResident(kept)).toBe(false);
    expect(await urlCounts(kept.client)).toMatchObject({ queued: 3 });
    await stop();
    expect(await lmdbRowCountOf(keyspaceStore, 'url_task')).toBe(3);
    expect(existsSync(residentUrlTaskSnapshotPathOf(keyspaceStore))).toBe(false);

    // A new store written through: url_task in the keyspace, no refusal.
    dataDirectory = undefined;
    const writtenThrough = await start('auto', { STORAGE_LMDB_WRITE_BEHIND: 'off' });
    expect(await isResident(writtenThrough)).toBe(false);
    await seedThreeUrls(writtenThrough);
    await stop();
    expect(await lmdbRowCountOf(join(writtenThrough.dataDirectory, 'scheduler'), 'url_task')).toBe(
      3,
    );
  });

  it('refuses a mode it does not know, before it opens anything', async () => {
    await expect(start('yes' as 'on')).rejects.toThrow(/"on", "off" or "auto", got "yes"/);
  });
});
