import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbBackend } from '../../common/storage/lmdb-backend';
import type {
  KeyValueWrite,
  OrderedKeyValueBackend,
} from '../../common/storage/ordered-key-value-backend';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import { WriteBatch } from './write-batch';

/**
 * A real LMDB backend whose writes are also recorded in the order they were issued and awaited:
 * what TiKV, which has no multi-row transactions, would make durable one call at a time.
 */
function recordingBackend(inner: OrderedKeyValueBackend, order: string[]): OrderedKeyValueBackend {
  const keysOf = (writes: KeyValueWrite[]) => writes.map((write) => write.key.toString('utf8'));
  return Object.assign(Object.create(inner) as OrderedKeyValueBackend, {
    putMany: async (writes: KeyValueWrite[]) => {
      await inner.putMany(writes);
      order.push(...keysOf(writes).map((key) => `put ${key}`));
    },
    deleteMany: async (keys: Buffer[]) => {
      await inner.deleteMany(keys);
      order.push(...keys.map((key) => `delete ${key.toString('utf8')}`));
    },
  });
}

describe('a write batch on a backend without atomic batches', () => {
  it('makes pointers, new documents, transitions and clean-up durable in that order', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'write-batch-'));
    const backend = await LmdbBackend.open(directory);
    try {
      const order: string[] = [];
      const keyspace = openServiceKeyspace('scheduler', recordingBackend(backend, order));
      const urlTasks = keyspace.table<{ url_state: string }>('url_task');
      const dueIndex = keyspace.table<Record<string, never>>('url_due_index');
      const batch = new WriteBatch(false, () => undefined);
      // Issued in the "wrong" order on purpose: the phases decide, not the calls.
      batch.delete(dueIndex, 'old-entry');
      batch.put(urlTasks, 'parent', { url_state: 'done' }, 'transitions');
      batch.put(urlTasks, 'discovered-link', { url_state: 'queued' }, 'documents');
      batch.put(dueIndex, 'new-entry', {}, 'pointers');
      await (
        await batch.commit()
      ).durable;
      expect(order).toEqual([
        'put scheduler:url_due_index:new-entry',
        'put scheduler:url_task:discovered-link',
        'put scheduler:url_task:parent',
        'delete scheduler:url_due_index:old-entry',
      ]);
    } finally {
      await backend.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe.each([
  ['atomic (LMDB)', true],
  ['phase by phase (TiKV)', false],
])('a write batch with one write storage refuses, %s', (_label, isAtomic) => {
  it('writes none of the batch and rejects its durability', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'write-batch-'));
    const backend = await LmdbBackend.open(directory);
    try {
      const keyspace = openServiceKeyspace('scheduler', backend);
      const urlTasks = keyspace.table<{ url_state: string }>('url_task');
      const waitingIndex = keyspace.table<Record<string, never>>('url_waiting_index');
      const batch = new WriteBatch(isAtomic, () => undefined);
      batch.put(urlTasks, 'fine', { url_state: 'queued' }, 'documents');
      batch.put(waitingIndex, 'x'.repeat(1100), {}, 'pointers'); // over the 1,024-byte key limit
      const { durable } = await batch.commit();
      await expect(durable).rejects.toThrow(/1024/);
      // A later write is durable only after everything issued before it (one writer, in order).
      await urlTasks.put('later', { url_state: 'queued' });
      expect(await urlTasks.get('fine')).toBeUndefined();
    } finally {
      await backend.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
