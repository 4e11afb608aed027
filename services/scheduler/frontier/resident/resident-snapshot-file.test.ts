import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import type { UrlTaskDocument } from '../frontier-documents';
import { queuedUrlTask } from '../../testing/url-task-fixtures';
import { timeTextOf } from '../time-text';
import {
  readResidentSnapshot,
  ResidentSnapshotError,
  writeResidentSnapshot,
} from './resident-snapshot-file';
import { ResidentUrlStore } from './resident-url-store';

function taskOf(index: number): UrlTaskDocument {
  const domain = `d${index % 331}.example`;
  const urlHash = randomBytes(16).toString('hex');
  return queuedUrlTask({
    url: `https://${domain}/page-${index}`,
    url_hash: urlHash,
    domain,
    url_state: (['queued', 'done', 'waiting_for_rule', 'failed'] as const)[index % 4],
    priority_rank: index % 4 === 2 ? null : index % 7,
    seed_priority_rank: index % 5 === 0 ? 1 : null,
    priority_rank_offset: index % 3,
    due_at: timeTextOf(Date.UTC(2026, 7, 15) + (index % 1000) * 1000),
    is_in_due_index: index % 8 === 0,
    applied_lease_id: index % 2 === 0 ? `l-${randomBytes(8).toString('hex')}` : 'unusual-lease',
    attempt_count: index % 3,
    fail_reason: index % 4 === 3 ? 'http_server_error' : null,
    park_reason: index % 4 === 3 ? 'attempts_exhausted' : null,
    object_id: index % 4 === 1 ? urlHash : null,
    etag: index % 6 === 0 ? `"e${index}"` : null,
    fetched_at: index % 4 === 1 ? '2026-08-15T07:40:00Z' : null,
    revisit_interval_seconds: index % 4 === 1 ? 86_400 : null,
  });
}

describe('resident snapshot files', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'resident-snapshot-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it.each([
    ['its url_hash index built here', {}],
    ['its url_hash index built on a thread meanwhile', { indexThreadFromSlots: 0 }],
  ])(
    'reads back every document and every queue, across chunks, %s, and takes puts after',
    async (_, options) => {
      const store = new ResidentUrlStore({ minGarbageByteCount: 1 << 30 });
      const tasks = Array.from({ length: 70_000 }, (_, index) => taskOf(index));
      for (const task of tasks) store.put(task);
      // Replaced text left as garbage: the snapshot holds live text only.
      for (const task of tasks.slice(0, 5000))
        store.put({ ...task, etag: `"new-${task.url_hash}"` });
      const latest = new Map(tasks.map((task) => [task.url_hash, store.get(task.url_hash)]));
      const path = join(directory, 'snapshot');
      const byteCount = await writeResidentSnapshot(store, path, { journalSequence: 41 });
      expect(readFileSync(path).length).toBe(byteCount);
      expect((await readResidentSnapshot(path)).journalSequence).toBe(41);

      const { store: loaded } = await readResidentSnapshot(path, options);
      expect(loaded.size).toBe(store.size);
      expect(tasks.filter((task) => loaded.table.slotOf(task.url_hash) < 0)).toEqual([]);
      // Every seventh document compared whole — every kind the tasks cycle through (all 70,000 cost
      // seconds under jest).
      const sampled = tasks.filter((_, index) => index % 7 === 0);
      expect(sampled.map((task) => loaded.get(task.url_hash))).toEqual(
        sampled.map((task) => latest.get(task.url_hash)),
      );
      for (const domain of ['d0.example', 'd7.example', 'd330.example']) {
        expect(loaded.indexes.dueSlots(domain, 1000)).toEqual(store.indexes.dueSlots(domain, 1000));
        expect(loaded.indexes.waitingSlots(domain, 1000)).toEqual(
          store.indexes.waitingSlots(domain, 1000),
        );
      }
      expect(loaded.indexes.revisitCount).toBe(store.indexes.revisitCount);
      // The loaded store builds its heaps in one go (ResidentUrlIndexes.addAll): the same groups,
      // every re-visit bucket in the same order.
      for (const index of ['due', 'waiting', 'revisit'] as const) {
        expect(loaded.indexes.groups(index).sort()).toEqual(store.indexes.groups(index).sort());
      }
      for (const bucket of store.indexes.groups('revisit')) {
        expect(loaded.indexes.revisitSlots(bucket, 100_000)).toEqual(
          store.indexes.revisitSlots(bucket, 100_000),
        );
      }

      // A loaded store takes new URLs and new text like any other.
      const added = taskOf(200_000);
      loaded.put(added);
      loaded.put({ ...tasks[1], etag: '"after-load"' });
      expect(loaded.get(added.url_hash)).toEqual(added);
      expect(loaded.get(tasks[1].url_hash)?.etag).toBe('"after-load"');
      expect(loaded.get(tasks[2].url_hash)).toEqual(latest.get(tasks[2].url_hash));
    },
  );

  it('is exact, once the changes made while it was written are put again, as a journal would', async () => {
    const store = new ResidentUrlStore();
    const tasks = Array.from({ length: 30_000 }, (_, index) => taskOf(index));
    for (const task of tasks) store.put(task);
    const path = join(directory, 'snapshot');
    // Puts between the snapshot's slices: changed documents and new URLs, in order.
    const changes: UrlTaskDocument[] = [];
    let isWriting = true;
    const changing = (async () => {
      for (let round = 0; isWriting; round += 1) {
        const changed = { ...tasks[(round * 7919) % tasks.length], etag: `"r${round}"` };
        const added = taskOf(100_000 + round);
        for (const task of [changed, added]) {
          store.put(task);
          changes.push(task);
        }
        await setImmediate();
      }
    })();
    await writeResidentSnapshot(store, path, { sliceSlotCount: 500 });
    isWriting = false;
    await changing;
    expect(changes.length).toBeGreaterThan(10);

    const { store: loaded } = await readResidentSnapshot(path);
    for (const task of changes) loaded.put(task);
    expect(loaded.size).toBe(store.size);
    const hashes = [...tasks, ...changes].map((task) => task.url_hash);
    expect(
      hashes.filter((urlHash) => loaded.table.slotOf(urlHash) !== store.table.slotOf(urlHash)),
    ).toEqual([]);
    const sampled = hashes.filter((_, index) => index % 7 === 0);
    expect(sampled.map((urlHash) => loaded.get(urlHash))).toEqual(
      sampled.map((urlHash) => store.get(urlHash)),
    );
    for (const domain of ['d0.example', 'd7.example', 'd330.example']) {
      expect(loaded.indexes.dueSlots(domain, 1000)).toEqual(store.indexes.dueSlots(domain, 1000));
    }
    expect(loaded.indexes.revisitCount).toBe(store.indexes.revisitCount);
  });

  it('writes and reads back an empty store', async () => {
    const path = join(directory, 'snapshot');
    await writeResidentSnapshot(new ResidentUrlStore(), path);
    const { store: loaded } = await readResidentSnapshot(path);
    expect(loaded.size).toBe(0);
    const task = taskOf(1);
    loaded.put(task);
    expect(loaded.get(task.url_hash)).toEqual(task);
  });

  it.each([
    ['checksummed before it is loaded', {}],
    ['checksummed on a thread of its own while it is loaded', { checksumThreadFromBytes: 0 }],
  ])(
    'refuses a damaged, torn or foreign file, %s, and replaces a snapshot whole',
    async (_, options) => {
      const store = new ResidentUrlStore();
      for (let index = 0; index < 2000; index += 1) store.put(taskOf(index));
      const path = join(directory, 'snapshot');
      await writeResidentSnapshot(store, path);
      const whole = readFileSync(path);
      expect((await readResidentSnapshot(path, options)).store.size).toBe(2000);

      // In a column, in a slice's header (its JSON no longer parses), in the trailer's code lists.
      const headerAt = whole.indexOf('{"first_slot"');
      const trailerAt = whole.lastIndexOf('"domain_list"');
      for (const at of [Math.floor(whole.length / 2), headerAt + 1, trailerAt + 3]) {
        const flipped = Buffer.from(whole);
        flipped[at] ^= 0x40;
        writeFileSync(path, flipped);
        await expect(readResidentSnapshot(path, options)).rejects.toThrow(/checksum/);
      }

      writeFileSync(path, whole.subarray(0, whole.length - 100));
      await expect(readResidentSnapshot(path, options)).rejects.toThrow(ResidentSnapshotError);

      writeFileSync(path, Buffer.from('not a snapshot at all'));
      await expect(readResidentSnapshot(path, options)).rejects.toThrow(/not a resident snapshot/);

      // Written again over the damaged one (and over a temporary file a crash left behind).
      writeFileSync(`${path}.tmp`, 'left by a crash');
      store.put(taskOf(5000));
      await writeResidentSnapshot(store, path);
      expect((await readResidentSnapshot(path, options)).store.size).toBe(2001);
    },
  );
});
