import { randomBytes } from 'node:crypto';
import type { UrlTaskDocument } from '../frontier-documents';
import { queuedUrlTask } from '../../testing/url-task-fixtures';
import { placementOf } from '../index-placement';
import { shardBucketOf } from '../domain-shard';
import { timeTextOf } from '../time-text';
import type { UrlState } from '../wire-types';
import { ResidentUrlStore } from './resident-url-store';
import { ResidentValueError } from './resident-url-table';

const DOMAINS = ['a.example', 'b.example', 'c.example'];
const STATES: UrlState[] = ['queued', 'queued', 'done', 'waiting_for_rule', 'failed', 'dropped'];
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)];

function randomTask(urlHash: string, domain: string): UrlTaskDocument {
  const state = pick(STATES);
  return queuedUrlTask({
    url: `https://${domain}/${urlHash}`,
    url_hash: urlHash,
    domain,
    url_state: state,
    // Few ranks and due times, so that the order falls through to the next key often.
    priority_rank:
      state === 'waiting_for_rule' || Math.random() < 0.05 ? null : pick([0, 5, 10, 10_000]),
    due_at: timeTextOf(Date.UTC(2026, 7, 15) + pick([0, 1, 2, 3600]) * 1000),
    is_in_due_index: Math.random() < 0.7,
  });
}

/** The url_hashes of an index's entries as the keyspace orders them (its keys' byte order). */
function keyspaceOrder(documents: Iterable<UrlTaskDocument>, indexName: string, domain?: string) {
  return [...documents]
    .map((task) => ({ task, placement: placementOf(task) }))
    .filter(
      ({ task, placement }) =>
        placement?.indexName === indexName && (domain === undefined || task.domain === domain),
    )
    .sort((left, right) => {
      const [l, r] = [left.placement?.key.encoded ?? '', right.placement?.key.encoded ?? ''];
      return l < r ? -1 : l > r ? 1 : 0;
    })
    .map(({ task }) => task.url_hash);
}

describe('ResidentUrlStore', () => {
  it('keeps every URL in the index its fields place it in, in the keyspace indexes’ order', () => {
    const store = new ResidentUrlStore();
    const documents = new Map<string, UrlTaskDocument>();
    const hashes = Array.from({ length: 400 }, () => randomBytes(16).toString('hex'));
    const domainOf = new Map(hashes.map((urlHash) => [urlHash, pick(DOMAINS)]));
    const hashesOf = (slots: number[]) => slots.map((slot) => store.read(slot).url_hash);
    for (let step = 0; step < 6000; step += 1) {
      const urlHash = pick(hashes);
      const task = randomTask(urlHash, domainOf.get(urlHash) as string);
      store.put(task);
      documents.set(urlHash, task);
      if (step % 500 !== 499) continue;
      for (const domain of DOMAINS) {
        expect(hashesOf(store.indexes.dueSlots(domain, 1000))).toEqual(
          keyspaceOrder(documents.values(), 'due', domain),
        );
        expect(store.indexes.dueCount(domain)).toBe(
          keyspaceOrder(documents.values(), 'due', domain).length,
        );
        expect(hashesOf(store.indexes.waitingSlots(domain, 1000))).toEqual(
          keyspaceOrder(documents.values(), 'waiting', domain),
        );
      }
      // Re-visits per shard bucket in due order, as the keyspace index orders them.
      const revisits = keyspaceOrder(documents.values(), 'revisit');
      expect(store.indexes.revisitCount).toBe(revisits.length);
      const buckets = [...new Set(DOMAINS.map(shardBucketOf))].sort();
      expect(store.indexes.groups('revisit').sort()).toEqual(
        buckets.filter((bucket) => store.indexes.revisitSlots(bucket, 1).length > 0),
      );
      expect(
        buckets.flatMap((bucket) => hashesOf(store.indexes.revisitSlots(bucket, 10_000))),
      ).toEqual(revisits);
    }
    expect(store.indexes.dueSlots('unknown.example', 5)).toEqual([]);
  });

  it('leaves a URL in its index, unchanged, when a put of it is refused', () => {
    const store = new ResidentUrlStore();
    const urlHash = randomBytes(16).toString('hex');
    const task = {
      ...randomTask(urlHash, 'a.example'),
      url_state: 'queued' as const,
      is_in_due_index: true,
      priority_rank: 3,
    };
    const slot = store.put(task);
    expect(() => store.put({ ...task, priority_rank: 1, due_at: 'soon' })).toThrow(
      ResidentValueError,
    );
    expect(store.get(urlHash)).toEqual(task);
    expect(store.indexes.dueSlots('a.example', 5)).toEqual([slot]);
    store.put({ ...task, url_state: 'done', is_in_due_index: false });
    expect(store.indexes.dueSlots('a.example', 5)).toEqual([]);
    expect(store.indexes.revisitCount).toBe(1);
  });

  it('builds its url_hash index here when the thread meant to build it fails', async () => {
    const store = new ResidentUrlStore();
    const tasks = Array.from({ length: 3000 }, (_, index) =>
      randomTask(randomBytes(16).toString('hex'), DOMAINS[index % DOMAINS.length]),
    );
    tasks.forEach((task) => store.put(task));
    const slices = [store.table.slice(0, 1000), store.table.slice(1000, 5000)];
    const loaded = await ResidentUrlStore.fromSlicesIndexedBy(
      slices,
      store.table.codeLists(),
      {},
      () => Promise.reject(new Error('no thread')),
    );
    expect(tasks.filter((task) => loaded.get(task.url_hash) === undefined)).toEqual([]);
    for (const domain of DOMAINS) {
      expect(loaded.indexes.dueSlots(domain, 5000)).toEqual(store.indexes.dueSlots(domain, 5000));
    }
  });
});
