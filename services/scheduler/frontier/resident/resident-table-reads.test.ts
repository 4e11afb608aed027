import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbBackend } from '../../../common/storage/lmdb-backend';
import type { KeyspaceTable } from '../../../common/storage/keyspace-table';
import { PrimaryKey, primaryKeyPrefix } from '../../../common/storage/primary-key';
import { openServiceKeyspace } from '../../../common/storage/service-keyspace';
import { shardBucketOf } from '../domain-shard';
import type { IndexEntryDocument, UrlTaskDocument } from '../frontier-documents';
import { EMPTY_INDEX_ENTRY, openFrontierTables, type FrontierTables } from '../frontier-tables';
import { placementOf } from '../index-placement';
import { queuedUrlTask } from '../../testing/url-task-fixtures';
import { msOfTimeText, timeTextOf } from '../time-text';
import type { UrlState } from '../wire-types';
import { residentUrlTables } from './resident-table-reads';
import { ResidentUrlStore } from './resident-url-store';

// a.example is a prefix of a.example.org: their keys sort the other way round from their names.
const DOMAINS = ['a.example', 'a.example.org', 'b.example', 'c.example', 'd.example'];
const STATES: UrlState[] = ['queued', 'queued', 'done', 'waiting_for_rule', 'failed'];
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)];

function randomTask(index: number): UrlTaskDocument {
  const state = pick(STATES);
  const domain = pick(DOMAINS);
  return queuedUrlTask({
    url: `https://${domain}/${index}`,
    url_hash: randomBytes(16).toString('hex'),
    domain,
    url_state: state,
    // -3: a rank whose padded key text does not sort as the number does (compared by key).
    priority_rank:
      state === 'waiting_for_rule' ? null : pick([0, 5, 10, 10_000, -3, Number.MAX_SAFE_INTEGER]),
    due_at: timeTextOf(Date.UTC(2026, 7, 15) + pick([0, 1, 2, 3600]) * 1000),
    is_in_due_index: Math.random() < 0.7,
  });
}

/** Every key of a scan, read in pages of `pageSize` — each page resumed after the last key. */
async function keysOf(
  table: KeyspaceTable<unknown>,
  pageSize: number,
  prefix?: string,
): Promise<string[]> {
  const keys: string[] = [];
  let after: PrimaryKey | undefined;
  for (;;) {
    const page = await table.scanKeys({
      prefix: prefix === undefined ? undefined : primaryKeyPrefix(prefix),
      after,
      limit: pageSize,
    });
    keys.push(...page.keys.map((key) => key.encoded));
    if (page.nextAfter === null) return keys;
    // A page that does not move past its `after` would be read again and again (url_task pages
    // run in slot order, not key order: bounded by count).
    if (page.nextAfter.encoded === after?.encoded || keys.length > 100_000) {
      throw new Error(`a scan that does not end: a page after ${after?.encoded}`);
    }
    after = page.nextAfter;
  }
}

describe('the keyspace tables read from the resident store', () => {
  let directory: string;
  let backend: LmdbBackend;
  let keyspaceTables: FrontierTables;
  let residentTables: FrontierTables;
  const tasks = Array.from({ length: 600 }, (_, index) => randomTask(index));

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'resident-reads-'));
    backend = await LmdbBackend.open(directory);
    const keyspace = openServiceKeyspace('scheduler', backend);
    keyspaceTables = openFrontierTables(keyspace);
    const store = new ResidentUrlStore();
    residentTables = openFrontierTables(keyspace, residentUrlTables(keyspace, store));
    // The keyspace's tables as the frontier keeps them: each document and its one index entry.
    for (const task of tasks) {
      store.put(task);
      await keyspaceTables.urlTasks.put(task.url_hash, task);
      const placement = placementOf(task);
      if (placement === undefined) continue;
      const index: KeyspaceTable<IndexEntryDocument> = {
        due: keyspaceTables.dueIndex,
        revisit: keyspaceTables.revisitIndex,
        waiting: keyspaceTables.waitingIndex,
      }[placement.indexName];
      await index.put(placement.key, EMPTY_INDEX_ENTRY);
    }
  });
  afterAll(async () => {
    await backend.close();
    await rm(directory, { recursive: true, force: true });
  });

  const indexes = ['dueIndex', 'revisitIndex', 'waitingIndex'] as const;

  it.each(indexes)(
    '%s: the same keys in the same order, a group or the whole index, page by page',
    async (name) => {
      const groups = name === 'revisitIndex' ? [...new Set(DOMAINS.map(shardBucketOf))] : DOMAINS;
      for (const group of [...groups, 'unknown.example']) {
        for (const pageSize of [1, 3, 1000]) {
          expect(await keysOf(residentTables[name], pageSize, group)).toEqual(
            await keysOf(keyspaceTables[name], pageSize, group),
          );
        }
      }
      for (const pageSize of [7, 10_000]) {
        const whole = await keysOf(keyspaceTables[name], pageSize);
        expect(whole.length).toBeGreaterThan(10);
        expect(await keysOf(residentTables[name], pageSize)).toEqual(whole);
      }
    },
  );

  it.each(indexes)(
    '%s: a page after a key that is no entry starts where the keyspace index would',
    async (name) => {
      const stored = (await keysOf(keyspaceTables[name], 10_000)).map((encoded) =>
        PrimaryKey.fromEncoded(encoded),
      );
      // Keys between entries: an entry's with its url_hash changed, one second later, or a rank
      // apart — and keys no entry could have (a rank's text out of order, a torn url_hash).
      const shifted = (key: PrimaryKey, part: number, value: string) =>
        PrimaryKey.of(...key.parts.map((text, index) => (index === part ? value : text)));
      const hashPart = (key: PrimaryKey) => key.parts.length - 1;
      const probes = stored
        .slice(0, 60)
        .flatMap((key) => [
          shifted(key, hashPart(key), randomBytes(16).toString('hex')),
          shifted(key, hashPart(key), 'f'.repeat(31)),
          ...(key.parts.length > 2
            ? [
                shifted(
                  key,
                  hashPart(key) - 1,
                  timeTextOf(msOfTimeText(key.parts[hashPart(key) - 1]) + 1000),
                ),
              ]
            : []),
          ...(name === 'dueIndex'
            ? [shifted(key, 1, '0000000000000007'), shifted(key, 1, '7')]
            : []),
        ]);
      for (const after of probes) {
        const group = after.parts[0];
        const read = (table: KeyspaceTable<IndexEntryDocument>) =>
          table.scanKeys({ prefix: primaryKeyPrefix(group), after, limit: 3 });
        const [resident, keyspace] = [
          await read(residentTables[name]),
          await read(keyspaceTables[name]),
        ];
        expect(resident.keys.map((key) => key.encoded)).toEqual(
          keyspace.keys.map((key) => key.encoded),
        );
        expect(resident.nextAfter?.encoded).toEqual(keyspace.nextAfter?.encoded);
      }
    },
  );

  it('answers an index entry by key only while its document is placed there', async () => {
    const [placed] = tasks.filter((task) => placementOf(task)?.indexName === 'due');
    const key = placementOf(placed)?.key as PrimaryKey;
    expect(await residentTables.dueIndex.hasMany([key])).toEqual([true]);
    const stale = placementOf({ ...placed, priority_rank: 77 })?.key as PrimaryKey;
    expect(await residentTables.dueIndex.getMany([stale, key])).toEqual([
      undefined,
      EMPTY_INDEX_ENTRY,
    ]);
  });

  it('reads url_task by url_hash, and scans it whole in pages with every url_hash once', async () => {
    const sample = tasks.slice(0, 20).map((task) => task.url_hash);
    expect(await residentTables.urlTasks.getMany(sample)).toEqual(
      await keyspaceTables.urlTasks.getMany(sample),
    );
    expect(await residentTables.urlTasks.hasMany(['0'.repeat(32), 'not-a-hash'])).toEqual([
      false,
      false,
    ]);
    const scanned = await keysOf(residentTables.urlTasks, 64);
    expect(scanned.sort()).toEqual((await keysOf(keyspaceTables.urlTasks, 1000)).sort());
    const rows: string[] = [];
    let after: PrimaryKey | undefined;
    for (;;) {
      const page = await residentTables.urlTasks.scan({ after, limit: 250 });
      rows.push(...page.rows.map((row) => row.value.url_hash));
      if (page.nextAfter === null) break;
      after = page.nextAfter;
    }
    expect(rows.sort()).toEqual(scanned);
  });

  it('reads url_task whole at once from the resident store, not from the backend', async () => {
    // A store holding five of the backend's 600 rows: the read answers the five.
    const store = new ResidentUrlStore();
    const held = tasks.slice(0, 5);
    held.forEach((task) => store.put(task));
    const keyspace = openServiceKeyspace('scheduler', backend);
    const tables = openFrontierTables(keyspace, residentUrlTables(keyspace, store));
    const visited: string[] = [];
    await tables.urlTasks.forEachValue((task) => visited.push(task.url_hash));
    expect(visited.sort()).toEqual(held.map((task) => task.url_hash).sort());
  });

  it('drops writes to the indexes and refuses what it cannot answer', async () => {
    const before = await keysOf(residentTables.dueIndex, 1000);
    const [task] = tasks;
    await residentTables.dueIndex.put(placementOf(task)?.key ?? task.url_hash, EMPTY_INDEX_ENTRY);
    expect(await keysOf(residentTables.dueIndex, 1000)).toEqual(before);
    await expect(residentTables.dueIndex.scanKeys({ prefix: 'a.exa', limit: 10 })).rejects.toThrow(
      /partial or multi-part prefix/,
    );
    await expect(
      residentTables.urlTasks.update(task.url_hash, (current) => current),
    ).rejects.toThrow(/resident/);
  });
});
