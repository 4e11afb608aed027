import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LmdbBackend } from '../../common/storage/lmdb-backend';
import type {
  KeyValueWrite,
  OrderedKeyValueBackend,
} from '../../common/storage/ordered-key-value-backend';
import { openServiceKeyspace } from '../../common/storage/service-keyspace';
import { CommitQueue, type CommitMode } from './commit-queue';
import { WriteBatch } from './write-batch';

/**
 * A real LMDB backend whose writes are also recorded in the order they were issued and awaited:
 * what TiKV, which has no multi-row transactions, would make durable one call at a time. With
 * `gate`, every write waits until the gate opens (a commit "in flight").
 */
function recordingBackend(
  inner: OrderedKeyValueBackend,
  order: string[],
  gate?: { opened: Promise<void> },
): OrderedKeyValueBackend {
  const keysOf = (writes: KeyValueWrite[]) => writes.map((write) => write.key.toString('utf8'));
  return Object.assign(Object.create(inner) as OrderedKeyValueBackend, {
    putMany: async (writes: KeyValueWrite[]) => {
      await gate?.opened;
      await inner.putMany(writes);
      order.push(...keysOf(writes).map((key) => `put ${key}`));
    },
    deleteMany: async (keys: Buffer[]) => {
      await gate?.opened;
      await inner.deleteMany(keys);
      order.push(...keys.map((key) => `delete ${key.toString('utf8')}`));
    },
  });
}

async function withLmdb(run: (backend: LmdbBackend) => Promise<void>): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'commit-queue-'));
  const backend = await LmdbBackend.open(directory);
  try {
    await run(backend);
  } finally {
    await backend.close();
    await rm(directory, { recursive: true, force: true });
  }
}

/**
 * A commit queue over `backend` whose writes wait until `open` is called (a commit in flight),
 * recording the order writes were made in and the batches per commit.
 */
function gatedQueue(backend: OrderedKeyValueBackend, mode: CommitMode) {
  const order: string[] = [];
  let open!: () => void;
  const gate = { opened: new Promise<void>((resolve) => (open = resolve)) };
  const keyspace = openServiceKeyspace('scheduler', recordingBackend(backend, order, gate));
  const urlTasks = keyspace.table<{ url_state: string }>('url_task');
  const commitSizes: number[] = [];
  const queue = new CommitQueue(mode, (batchCount) => commitSizes.push(batchCount));
  return { order, open, urlTasks, commitSizes, queue };
}

describe('a commit on a backend without atomic batches', () => {
  it('makes pointers, new documents, transitions, answers and clean-up durable in that order', async () => {
    await withLmdb(async (backend) => {
      const order: string[] = [];
      const keyspace = openServiceKeyspace('scheduler', recordingBackend(backend, order));
      const urlTasks = keyspace.table<{ url_state: string }>('url_task');
      const dueIndex = keyspace.table<Record<string, never>>('url_due_index');
      const answers = keyspace.table<{ is_stale_lease: boolean }>('lease_result');
      const batch = new WriteBatch();
      // Issued in the "wrong" order on purpose: the phases decide, not the calls.
      batch.delete(dueIndex, 'old-entry');
      batch.put(answers, 'l-1', { is_stale_lease: false }, 'answers');
      batch.put(urlTasks, 'parent', { url_state: 'done' }, 'transitions');
      batch.put(urlTasks, 'discovered-link', { url_state: 'queued' }, 'documents');
      batch.put(dueIndex, 'new-entry', {}, 'pointers');
      await new CommitQueue('phased').commit(batch.prepare());
      expect(order).toEqual([
        'put scheduler:url_due_index:new-entry',
        'put scheduler:url_task:discovered-link',
        'put scheduler:url_task:parent',
        'put scheduler:lease_result:l-1',
        'delete scheduler:url_due_index:old-entry',
      ]);
    });
  });
});

describe.each([
  ['atomic (LMDB)', 'grouped'],
  ['batch by batch, phase by phase (TiKV)', 'phased'],
] as const)('group commit, %s', (_label, mode) => {
  it('sends the batches decided while a commit is written out together as the next commit', async () => {
    await withLmdb(async (backend) => {
      const { order, open, urlTasks, commitSizes, queue } = gatedQueue(backend, mode);
      const commitOf = (name: string) => {
        const batch = new WriteBatch();
        batch.put(urlTasks, name, { url_state: 'queued' }, 'documents');
        return queue.commit(batch.prepare());
      };
      const durable = [commitOf('first')];
      // Decided while "first" is being written: they wait and go out as one commit.
      durable.push(commitOf('second'), commitOf('third'), commitOf('fourth'));
      open();
      await Promise.all(durable);
      expect(commitSizes).toEqual([1, 3]);
      expect(order).toEqual([
        'put scheduler:url_task:first',
        'put scheduler:url_task:second',
        'put scheduler:url_task:third',
        'put scheduler:url_task:fourth',
      ]);
    });
  });
});

describe.each(['grouped', 'phased', 'pipelined'] as const)('a failed commit, %s', (mode) => {
  it('writes none of a refused batch, and nothing after a failed commit', async () => {
    await withLmdb(async (backend) => {
      const keyspace = openServiceKeyspace('scheduler', backend);
      const urlTasks = keyspace.table<{ url_state: string }>('url_task');
      const waitingIndex = keyspace.table<Record<string, never>>('url_waiting_index');
      const refused = new WriteBatch();
      refused.put(urlTasks, 'fine', { url_state: 'queued' }, 'documents');
      refused.put(waitingIndex, 'x'.repeat(1100), {}, 'pointers'); // over the 1,024-byte key limit
      expect(() => refused.prepare()).toThrow(/1024/);
      expect(await urlTasks.get('fine')).toBeUndefined();

      const failing = new CommitQueue(mode);
      const broken = new WriteBatch();
      broken.put(urlTasks, 'before-failure', { url_state: 'queued' }, 'documents');
      const prepared = broken.prepare();
      // The backend refuses this commit (disk full, say).
      prepared.phases[1][0] = { issue: () => [Promise.reject(new Error('disk full'))] };
      await expect(failing.commit(prepared)).rejects.toThrow('disk full');
      const later = new WriteBatch();
      later.put(urlTasks, 'after-failure', { url_state: 'queued' }, 'documents');
      let hasFailedHookRun = false;
      later.onFailure(() => (hasFailedHookRun = true));
      await expect(failing.commit(later.prepare())).rejects.toThrow('disk full');
      expect(hasFailedHookRun).toBe(true);
      expect(await urlTasks.get('after-failure')).toBeUndefined();
    });
  });
});

describe('pipelined commits (a backend that keeps issue order)', () => {
  it('issues each batch as soon as it is decided and acknowledges them in decision order', async () => {
    await withLmdb(async (backend) => {
      const { open, urlTasks, commitSizes, queue } = gatedQueue(backend, 'pipelined');
      const issued: string[] = [];
      const acknowledged: string[] = [];
      const commitOf = (name: string) => {
        const batch = new WriteBatch();
        batch.put(urlTasks, name, { url_state: 'queued' }, 'documents');
        const prepared = batch.prepare();
        const [writes] = prepared.phases[1];
        prepared.phases[1] = [
          {
            issue: () => {
              issued.push(name);
              return writes.issue();
            },
          },
        ];
        return queue.commit(prepared).then(() => acknowledged.push(name));
      };
      const durable = [commitOf('first'), commitOf('second'), commitOf('third')];
      // None is durable yet ("first" included): all three are with the backend already.
      expect(issued).toEqual(['first', 'second', 'third']);
      open();
      await Promise.all(durable);
      expect(acknowledged).toEqual(['first', 'second', 'third']);
      expect(commitSizes).toEqual([1, 1, 1]);
      await queue.settled();
    });
  });

  it('fails a batch issued behind one that fails, even when its own writes went through', async () => {
    await withLmdb(async (backend) => {
      const keyspace = openServiceKeyspace('scheduler', backend);
      const urlTasks = keyspace.table<{ url_state: string }>('url_task');
      const queue = new CommitQueue('pipelined');
      let refuse!: (error: Error) => void;
      const broken = new WriteBatch();
      broken.put(urlTasks, 'refused-later', { url_state: 'queued' }, 'documents');
      const refusedPrepared = broken.prepare();
      refusedPrepared.phases[1][0] = {
        issue: () => [new Promise<void>((_resolve, reject) => (refuse = reject))],
      };
      const first = queue.commit(refusedPrepared);
      const behind = new WriteBatch();
      behind.put(urlTasks, 'issued-behind', { url_state: 'queued' }, 'documents');
      let failureHookError: unknown;
      behind.onFailure((error) => (failureHookError = error));
      const second = queue.commit(behind.prepare());
      // The second batch's own write is durable before the first one's outcome is known.
      for (let attempt = 0; attempt < 100; attempt += 1) {
        if ((await urlTasks.get('issued-behind')) !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await urlTasks.get('issued-behind')).toBeDefined();
      refuse(new Error('disk full'));
      await expect(first).rejects.toThrow('disk full');
      await expect(second).rejects.toThrow('disk full');
      expect(failureHookError).toEqual(new Error('disk full'));
      await queue.settled();
    });
  });
});
