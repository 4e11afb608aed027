import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { journalDirectoryOf } from '../../../common/storage/write-behind/file-write-journal';
import { ResidentRowReadError } from '../../../common/storage/write-behind/resident-rows';
import { openServiceKeyspace } from '../../../common/storage/service-keyspace';
import type { UrlTaskDocument } from '../frontier-documents';
import { openFrontierTables, urlTaskCodec, type FrontierTables } from '../frontier-tables';
import { queuedUrlTask, spreadUrlHashOf } from '../../testing/url-task-fixtures';
import { timeTextOf } from '../time-text';
import {
  openResidentUrlTaskStore,
  type ResidentUrlTaskStore,
} from './open-resident-url-task-store';
import { residentUrlTables } from './resident-table-reads';
import { residentUrlTaskSnapshotPathOf } from './resident-url-task-rows';
import { ResidentUrlStore } from './resident-url-store';
import { ResidentValueError } from './resident-url-table';

const NO_CHECKPOINT = { rowCountThreshold: 1e9, maxDelayMs: 3_600_000 };

function taskOf(index: number, version = 0): UrlTaskDocument {
  const domain = `d${index % 13}.example`;
  return queuedUrlTask({
    url: `https://${domain}/page-${index}`,
    url_hash: spreadUrlHashOf(index),
    domain,
    url_state: (['queued', 'done', 'waiting_for_rule'] as const)[(index + version) % 3],
    priority_rank: index % 5,
    due_at: timeTextOf(Date.UTC(2026, 7, 15) + ((index * 7 + version) % 500) * 1000),
    is_in_due_index: (index + version) % 3 === 0,
    attempt_count: version,
  });
}

let directory: string;
let opened: ResidentUrlTaskStore | undefined;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'resident-url-task-'));
});
afterEach(async () => {
  await opened?.close();
  opened = undefined;
  await rm(directory, { recursive: true, force: true });
});

async function open(
  snapshot: { rowCount?: number } = {},
): Promise<{ store: ResidentUrlTaskStore; tables: FrontierTables }> {
  await opened?.close();
  opened = await openResidentUrlTaskStore(directory, { checkpoint: NO_CHECKPOINT, snapshot });
  return {
    store: opened,
    tables: openFrontierTables(openServiceKeyspace('scheduler', opened.backend)),
  };
}

async function closeOpened(): Promise<void> {
  await opened?.close();
  opened = undefined;
}

/** The documents and due queues of `store` against a store built from `tasks` directly. */
function expectHolds(store: ResidentUrlStore, tasks: UrlTaskDocument[]): void {
  const built = new ResidentUrlStore();
  for (const task of tasks) built.put(task);
  expect(store.size).toBe(built.size);
  expect(tasks.filter((task) => !isEqual(store.get(task.url_hash), task))).toEqual([]);
  for (let domain = 0; domain < 13; domain += 1) {
    const name = `d${domain}.example`;
    const hashesOf = (of: ResidentUrlStore) =>
      of.indexes.dueSlots(name, 1_000).map((slot) => of.read(slot).url_hash);
    expect(hashesOf(store)).toEqual(hashesOf(built));
  }
  expect(store.indexes.revisitCount).toBe(built.indexes.revisitCount);
}

const canonical = (task: UrlTaskDocument | undefined) =>
  task === undefined ? 'none' : JSON.stringify(task, Object.keys(task).sort());
const isEqual = (left: UrlTaskDocument | undefined, right: UrlTaskDocument) =>
  canonical(left) === canonical(right);

test('url_task rows written through the keyspace are held resident, and only there', async () => {
  const { store, tables } = await open();
  await tables.urlTasks.putMany(
    [0, 1, 2].map((index) => ({ primaryKey: taskOf(index).url_hash, value: taskOf(index) })),
  );
  await tables.domainRuntime.put('d0.example', {
    domain: 'd0.example',
    in_flight_count: 0,
    next_dequeue_at: null,
    last_dequeue_at: null,
    queued_url_count: 3,
    done_url_count: 0,
    failed_url_count: 0,
    waiting_url_count: 0,
    dropped_url_count: 0,
    due_url_count: 1,
    head_priority_rank: null,
    head_due_at: null,
    updated_at: '2026-08-15T07:00:00Z',
  });
  expectHolds(
    store.urlTasks.store,
    [0, 1, 2].map((index) => taskOf(index)),
  );
  await expect(tables.urlTasks.get(taskOf(0).url_hash)).rejects.toThrow(ResidentRowReadError);
  expect((await tables.domainRuntime.get('d0.example'))?.queued_url_count).toBe(3);
});

test('a url_task the resident store cannot hold refuses its batch before it is journalled', async () => {
  const { store, tables } = await open();
  // The keyspace takes any text as url_hash; the resident table holds 32 hex digits.
  const unreadable = { ...taskOf(5), url_hash: 'not-a-hash' };
  await expect(
    tables.urlTasks.putMany([
      { primaryKey: taskOf(4).url_hash, value: taskOf(4) },
      { primaryKey: unreadable.url_hash, value: unreadable },
    ]),
  ).rejects.toThrow(ResidentValueError);
  // Under a key not its own url_hash: the index would file it under one name, the journal another.
  await expect(tables.urlTasks.put(taskOf(7).url_hash, taskOf(8))).rejects.toThrow(
    /not its url_hash/,
  );
  await expect(tables.urlTasks.delete(taskOf(4).url_hash)).rejects.toThrow(/never deleted/);
  expect(store.urlTasks.store.size).toBe(0);
  await tables.urlTasks.put(taskOf(9).url_hash, taskOf(9));
  await closeOpened();
  const reopened = await open();
  expectHolds(reopened.store.urlTasks.store, [taskOf(9)]);
});

test('a restart reads the snapshot and replays the journal since: every document at its newest', async () => {
  let { store, tables } = await open();
  const latest = new Map<number, UrlTaskDocument>();
  const write = async (indexes: number[], version: number) => {
    const tasks = indexes.map((index) => taskOf(index, version));
    await tables.urlTasks.putMany(
      tasks.map((task) => ({ primaryKey: task.url_hash, value: task })),
    );
    indexes.forEach((index, position) => latest.set(index, tasks[position]));
  };
  const range = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, offset) => from + offset);
  await write(range(0, 600), 0);
  await store.urlTasks.snapshots.snapshotNow();
  const coveredThrough = store.urlTasks.coveredThrough();
  expect(coveredThrough).toBe(1);
  await write(range(300, 900), 1);
  await write(range(0, 100), 2);
  await closeOpened();

  ({ store, tables } = await open());
  expect(store.urlTasks.coveredThrough()).toBe(coveredThrough);
  expectHolds(store.urlTasks.store, [...latest.values()]);
  // And once more, after writes on top of the replayed journal.
  await write(range(850, 950), 3);
  await closeOpened();
  ({ store } = await open());
  expectHolds(store.urlTasks.store, [...latest.values()]);
});

test('snapshots begin by row count, and the journal then forgets what they and the checkpoint cover', async () => {
  const { store, tables } = await open({ rowCount: 200 });
  for (let round = 0; round < 5; round += 1) {
    const tasks = Array.from({ length: 100 }, (_, index) => taskOf(round * 100 + index));
    await tables.urlTasks.putMany(
      tasks.map((task) => ({ primaryKey: task.url_hash, value: task })),
    );
    await store.urlTasks.snapshots.idle();
  }
  expect(existsSync(residentUrlTaskSnapshotPathOf(directory))).toBe(true);
  // Snapshots began after rounds 2 and 4, each covering the journal as far as it had reached.
  expect(store.urlTasks.coveredThrough()).toBe(4);
  await tables.urlTasks.put(taskOf(0, 1).url_hash, taskOf(0, 1));
  await store.urlTasks.snapshots.snapshotNow();
  await store.backend.checkpointNow();
  // Nothing is written behind here but url_tasks, so the checkpoint covers all; the snapshot
  // covers all: no segment is left.
  const segments = readdirSync(journalDirectoryOf(directory)).filter((name) =>
    name.endsWith('.log'),
  );
  expect(segments).toEqual([]);
});

test('a clean close forgets the segments a snapshot taken after the last checkpoint covers', async () => {
  const { store, tables } = await open();
  const tasks = Array.from({ length: 300 }, (_, index) => taskOf(index));
  for (let start = 0; start < tasks.length; start += 100) {
    await tables.urlTasks.putMany(
      tasks.slice(start, start + 100).map((task) => ({ primaryKey: task.url_hash, value: task })),
    );
  }
  // Checkpointed first, snapshotted after — as a stop does: no checkpoint runs after the snapshot.
  await store.backend.checkpointNow();
  await store.urlTasks.snapshots.snapshotNow();
  expect(store.urlTasks.coveredThrough()).toBe(3);
  const segments = () =>
    readdirSync(journalDirectoryOf(directory)).filter((name) => name.endsWith('.log'));
  expect(segments()).not.toEqual([]);
  await closeOpened();
  expect(segments()).toEqual([]);
  const reopened = await open();
  expectHolds(reopened.store.urlTasks.store, tasks);
  // Numbered on after the snapshot: a write after the reopen lands and survives another one.
  await reopened.tables.urlTasks.put(taskOf(5, 1).url_hash, taskOf(5, 1));
  await closeOpened();
  expect((await open()).store.urlTasks.store.get(taskOf(5).url_hash)?.attempt_count).toBe(1);
});

test('a snapshot covers the journal as far as it had reached when it began, not when it ended', async () => {
  const { store, tables } = await open();
  // Enough slots for several slices: the puts below land between them.
  const tasks = Array.from({ length: 40_000 }, (_, index) => taskOf(index));
  await tables.urlTasks.putMany(tasks.map((task) => ({ primaryKey: task.url_hash, value: task })));
  const snapshot = store.urlTasks.snapshots.snapshotNow();
  for (let version = 1; version <= 3; version += 1) {
    await tables.urlTasks.put(taskOf(7, version).url_hash, taskOf(7, version));
  }
  await snapshot;
  // Record 1 was in the store when it began; 2–4 came during it, and a replay must apply them.
  expect(store.urlTasks.coveredThrough()).toBe(1);
  await closeOpened();
  const reopened = await open();
  expect(reopened.store.urlTasks.store.get(taskOf(7).url_hash)?.attempt_count).toBe(3);
});

test('a document the resident tables write is taken as it is, and a row written as bytes alone is decoded', async () => {
  const { store } = await open();
  const keyspace = openServiceKeyspace('scheduler', store.backend);
  const tables = openFrontierTables(keyspace, residentUrlTables(keyspace, store.urlTasks));
  const decode = jest.spyOn(urlTaskCodec, 'decode');
  try {
    const task = taskOf(3);
    await tables.urlTasks.put(task.url_hash, task);
    expect(decode).not.toHaveBeenCalled();
    expect(await tables.urlTasks.get(task.url_hash)).toEqual(task);
    // A url_task table of the plain keyspace hands the store bytes without their document.
    const next = taskOf(3, 1);
    await openFrontierTables(keyspace)
      .urlTasks.put(next.url_hash, next)
      .catch(() => undefined);
    expect(decode).toHaveBeenCalledTimes(1);
    expect(store.urlTasks.store.get(task.url_hash)?.attempt_count).toBe(1);
  } finally {
    decode.mockRestore();
  }
});

test('a snapshot that fails is reported and tried again, and the journal keeps what it did not cover', async () => {
  const errors: unknown[] = [];
  await opened?.close();
  // A directory where the snapshot's temporary file goes: every write of it fails.
  const blocker = `${residentUrlTaskSnapshotPathOf(directory)}.tmp`;
  mkdirSync(blocker, { recursive: true });
  opened = await openResidentUrlTaskStore(directory, {
    checkpoint: NO_CHECKPOINT,
    snapshot: { rowCount: 100 },
    onSnapshotError: (error) => errors.push(error),
  });
  const store = opened;
  const tables = openFrontierTables(openServiceKeyspace('scheduler', store.backend));
  const write = async (from: number) => {
    const tasks = Array.from({ length: 100 }, (_, index) => taskOf(from + index));
    await tables.urlTasks.putMany(
      tasks.map((task) => ({ primaryKey: task.url_hash, value: task })),
    );
    await store.urlTasks.snapshots.idle();
  };
  await write(0);
  expect(errors).toHaveLength(1);
  expect(store.urlTasks.snapshots.statistics()).toMatchObject({
    snapshotCount: 0,
    failureCount: 1,
    uncoveredRecordCount: 1,
  });
  expect(store.urlTasks.coveredThrough()).toBe(0);
  rmSync(blocker, { recursive: true });
  await write(100);
  expect(errors).toHaveLength(1);
  expect(store.urlTasks.snapshots.statistics()).toMatchObject({
    snapshotCount: 1,
    failureCount: 1,
  });
  expect(store.urlTasks.coveredThrough()).toBe(2);
  await closeOpened();
  const reopened = await open();
  expect(reopened.store.urlTasks.store.size).toBe(200);
});
