import { prefixEnd } from '../key-range';
import { PrimaryKey, primaryKey, primaryKeyPrefix } from '../primary-key';
import { openServiceKeyspace } from '../service-keyspace';
import type { ServiceName } from '../service-name';
import { StorageConventionError, UpdateConflictError } from '../storage-errors';
import type { ConformanceContext } from './conformance-context';

/*
 * The service keyspace on top of the backend under test: isolation between services, replica
 * protection, naming rules and composite keys. Every primary key starts with a per-test namespace,
 * and every scan is restricted to it, so rows from other tests never interfere.
 */

interface DomainRuntime {
  attempt_count: number;
  note?: string;
}

/** Every table of CONTRACT.md's "Storage keys" list, by owner. */
const CONTRACT_TABLES: Record<ServiceName, string[]> = {
  scheduler: [
    'domain_rule_replica',
    'url_task',
    'url_due_index',
    'lease_task',
    'lease_expiry_index',
    'lease_result',
    'domain_runtime',
    'domain_health_runtime',
    'domain_candidate_task',
    'report_status_record',
  ],
  downloader: [
    'domain_runtime',
    'web_page_object',
    'concurrency_config',
    'report_outbox_task',
    'robots_txt_object',
    'fetch_audit_record',
  ],
  sampler: [
    'domain_rule',
    'domain_claim_task',
    'domain_sample_task',
    'consumer_token',
    'verdict_hint_result',
  ],
};

export function describeKeyspaceConformance(context: ConformanceContext): void {
  describe('service keyspace', () => {
    test('each service reads and writes only its own keys, stored as {service}:{table}:{key}', async () => {
      const backend = context.backend();
      const namespace = context.namespace();
      const scheduler = openServiceKeyspace('scheduler', backend).table<DomainRuntime>(
        'domain_runtime',
      );
      const downloader = openServiceKeyspace('downloader', backend).table<DomainRuntime>(
        'domain_runtime',
      );
      const domain = `${namespace}.example.com`;
      await scheduler.put(domain, { attempt_count: 1 });
      await downloader.put(domain, { attempt_count: 2 });
      expect(await scheduler.get(domain)).toEqual({ attempt_count: 1 });
      expect(await downloader.get(domain)).toEqual({ attempt_count: 2 });
      await downloader.delete(domain);
      expect(await scheduler.get(domain)).toEqual({ attempt_count: 1 });

      const schedulerPage = await scheduler.scan({ prefix: namespace, limit: 10 });
      expect(schedulerPage.rows.map((row) => row.value)).toEqual([{ attempt_count: 1 }]);
      // contract-gate-ignore-next-line: the test checks the physical key layout the handle produced
      const storedKey = Buffer.from(`scheduler:domain_runtime:${domain}`);
      expect(await backend.get(storedKey)).toEqual(Buffer.from('{"attempt_count":1}'));
    });

    test('crafted primary keys, prefixes and cursors stay inside the table', async () => {
      const backend = context.backend();
      const namespace = context.namespace();
      const keyspace = openServiceKeyspace('downloader', backend);
      const table = keyspace.table<DomainRuntime>('domain_runtime');
      const victim = openServiceKeyspace('sampler', backend).table<DomainRuntime>('domain_runtime');
      await victim.put(namespace, { attempt_count: 99 });

      const crafted = [
        `${namespace}:x`,
        `${namespace}::sampler:domain_runtime:${namespace}`,
        `[2001:db8::1]:${namespace}`,
        `${namespace}/part`,
        `${namespace}%2F`,
        `${namespace}%3A`,
        `${namespace}\u0000`,
      ];
      for (const [index, raw] of crafted.entries()) {
        await table.put(raw, { attempt_count: index });
      }
      for (const [index, raw] of crafted.entries()) {
        expect(await table.get(raw)).toEqual({ attempt_count: index });
      }
      // Every crafted key is stored as exactly three segments under the handle's own table.
      for (const [index, raw] of crafted.entries()) {
        // contract-gate-ignore-next-line: the test checks the physical key layout the handle produced
        const storedKey = `downloader:domain_runtime:${primaryKey(raw).encoded}`;
        expect(storedKey.split(':')).toHaveLength(3);
        expect(await backend.get(Buffer.from(storedKey))).toEqual(
          Buffer.from(`{"attempt_count":${index}}`),
        );
      }
      // contract-gate-ignore-next-line: the test checks the physical key layout the handle produced
      const tablePrefix = Buffer.from(`downloader:domain_runtime:${namespace}`);
      const stored = await backend.scan({
        start: tablePrefix,
        end: prefixEnd(tablePrefix),
        limit: 100,
      });
      expect(stored).toHaveLength(crafted.filter((raw) => raw.startsWith(namespace)).length);
      expect(await victim.get(namespace)).toEqual({ attempt_count: 99 });

      // A prefix or cursor pointing past the table yields nothing rather than the next table's rows.
      expect((await table.scan({ prefix: '\u{10FFFF}', limit: 10 })).rows).toEqual([]);
      expect((await table.scan({ after: '\u{10FFFF}', limit: 10 })).rows).toEqual([]);
      expect(() => PrimaryKey.fromEncoded('x:sampler')).toThrow(StorageConventionError);
      // Invalid keys reject (never throw synchronously), the same way on every backend.
      await expect(table.get('')).rejects.toThrow(StorageConventionError);
      // Keys past MAX_STORAGE_KEY_BYTES are refused the same way on every backend.
      await expect(table.put(namespace + 'x'.repeat(1100), { attempt_count: 0 })).rejects.toThrow(
        StorageConventionError,
      );
      expect(() => PrimaryKey.fromEncoded('x%41')).toThrow(StorageConventionError);
    });

    test('composite keys scan in tuple order with prefixes and resume cursors', async () => {
      const backend = context.backend();
      const namespace = context.namespace();
      const queue = openServiceKeyspace('scheduler', backend).table<{ url_hash: string }>(
        'url_due_index',
      );
      const tuples: Array<[string, string, string]> = [
        ['0003', '2026-08-15T07:47:52Z', 'b2'],
        ['0003', '2026-08-15T07:47:52Z', 'a1'],
        ['0003', '2026-08-15T07:48:00Z', 'a1'],
        ['0003', '2026-08-15T07:47:5', 'zz'],
        ['0002', '2026-08-15T09:00:00Z', 'c3'],
        ['00031', '2026-01-01T00:00:00Z', 'd4'],
        ['0004', '[2001:db8::1]', 'e5'],
        ['0004', '[2001:db8::]', 'e6'],
      ];
      await queue.putMany(
        tuples.map((parts) => ({
          primaryKey: primaryKey(namespace, ...parts),
          value: { url_hash: parts[2] },
        })),
      );
      const compareTuples = (left: string[], right: string[]) => {
        for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
          const order = Buffer.compare(Buffer.from(left[index]), Buffer.from(right[index]));
          if (order !== 0) {
            return order;
          }
        }
        return left.length - right.length;
      };
      const expected = [...tuples].sort(compareTuples);

      const collected: string[][] = [];
      let after: PrimaryKey | undefined;
      for (let page = 0; page < 10; page += 1) {
        const result = await queue.scan({ prefix: primaryKeyPrefix(namespace), after, limit: 3 });
        collected.push(...result.rows.map((row) => row.primaryKey.parts.slice(1)));
        if (result.nextAfter === null) {
          break;
        }
        after = result.nextAfter;
      }
      expect(collected).toEqual(expected);
      // A whole table (here the namespace's part) read at once comes in the same order.
      const visited: string[] = [];
      await queue.forEachValue((row) => visited.push(row.url_hash), {
        prefix: primaryKeyPrefix(namespace),
      });
      expect(visited).toEqual(expected.map((parts) => parts[2]));

      const priorityThree = await queue.scan({
        prefix: primaryKeyPrefix(namespace, '0003'),
        limit: 10,
      });
      expect(priorityThree.rows.map((row) => row.primaryKey.parts[3])).toEqual([
        'zz',
        'a1',
        'b2',
        'a1',
      ]);
      expect(priorityThree.nextAfter).toBeNull();
    });

    test('a _replica table is read-only through table() and written only by applyReplica', async () => {
      const backend = context.backend();
      const namespace = context.namespace();
      const keyspace = openServiceKeyspace('scheduler', backend);
      const reader = keyspace.table<{ rule_version: number }>('domain_rule_replica');
      // @ts-expect-error -- a replica view has no write methods at compile time…
      expect(reader.put).toBeUndefined();
      // …nor at run time.
      expect('compareAndSwap' in reader || 'delete' in reader || 'update' in reader).toBe(false);

      const replica = keyspace.replicaTable<{ rule_version: number }>('domain_rule_replica');
      await replica.applyReplica([
        { primaryKey: `${namespace}-a`, value: { rule_version: 1 } },
        { primaryKey: `${namespace}-b`, value: { rule_version: 1 } },
        { primaryKey: `${namespace}-a`, value: { rule_version: 2 } },
      ]);
      await replica.applyReplica([{ primaryKey: `${namespace}-b`, value: null }]);
      expect(await reader.getMany([`${namespace}-a`, `${namespace}-b`])).toEqual([
        { rule_version: 2 },
        undefined,
      ]);
      expect(() => keyspace.replicaTable('url_task' as `${string}_replica`)).toThrow(
        StorageConventionError,
      );
    });

    test('table names must follow the convention and end in a known job suffix', () => {
      const backend = context.backend();
      for (const [service, tables] of Object.entries(CONTRACT_TABLES)) {
        const keyspace = openServiceKeyspace(service as ServiceName, backend);
        for (const table of tables) {
          expect(() => keyspace.table(table)).not.toThrow();
        }
      }
      const keyspace = openServiceKeyspace('sampler', backend);
      const rejected = [
        'urlTask',
        'url-task',
        'url__task',
        '_url_task',
        'url_task_',
        'task',
        'url',
        'url_queue',
        'url_checkpoint',
        'url_q_task',
        'sched_task',
        'domain_stat_runtime',
        'url_hist_record',
        'crs_url_task',
        // contract-gate-ignore-next-line: a table name smuggling a key prefix must be refused
        'sampler:url_task',
        '',
      ];
      for (const name of rejected) {
        expect(() => keyspace.table(name)).toThrow(StorageConventionError);
      }
      expect(() => openServiceKeyspace('crs' as ServiceName, backend)).toThrow(
        StorageConventionError,
      );
    });

    test('documents with non-conforming field names are rejected before anything is written', async () => {
      const backend = context.backend();
      const namespace = context.namespace();
      const table = openServiceKeyspace('sampler', backend).table<unknown>('domain_sample_task');
      const rejected: unknown[] = [
        { sampleCount: 1 },
        { sample_cnt: 1 },
        { nested_list: [{ ok_name: 1 }, { 'Bad Name': 2 }] },
        { deep: { deeper: { retry_msg: 'x' } } },
        { enabled: true },
        { claimed_at: 1_723_456_789 },
        { claimed_at: '2026-08-15 07:47:52' },
        { claimed_at: '2026-08-15T07:47:52.250Z' },
        { hint_values: ['a'] },
        { lease_timeout: 30 },
        { lease_timeout_ms: '30' },
        { sample_q: 1 },
        { config_value: 'x' },
        { created: new Date(0) },
        { ratio: Number.NaN },
      ];
      for (const [index, document] of rejected.entries()) {
        const primaryKeyText = `${namespace}-${index}`;
        await expect(table.put(primaryKeyText, document)).rejects.toThrow(StorageConventionError);
        await expect(table.compareAndSwap(primaryKeyText, undefined, document)).rejects.toThrow(
          StorageConventionError,
        );
        expect(await table.get(primaryKeyText)).toBeUndefined();
      }
      const accepted = {
        is_sampled: true,
        claimed_at: '2026-08-15T07:47:52Z',
        released_at: null,
        timeout_ms: 1500,
        hint_list: [{ lang: 'en', is_primary: false }],
        network_log: ['grandfathered before the _list rule'],
        retry_after_seconds: 30,
      };
      await table.put(namespace, accepted);
      expect(await table.get(namespace)).toEqual(accepted);
    });

    test('compareAndSwap compares documents, not field order; update retries and gives up', async () => {
      const backend = context.backend();
      const namespace = context.namespace();
      const table = openServiceKeyspace('downloader', backend).table<DomainRuntime>(
        'domain_runtime',
      );
      await table.put(namespace, { attempt_count: 1, note: 'first' });
      const reordered = await table.compareAndSwap(
        namespace,
        { note: 'first', attempt_count: 1 },
        { attempt_count: 2 },
      );
      expect(reordered).toEqual({ isSwapped: true, previous: { attempt_count: 1, note: 'first' } });

      const bump = (current: DomainRuntime | undefined) => ({
        attempt_count: (current?.attempt_count ?? 0) + 1,
      });
      // Each lost race means another updater won, so 20 updaters need at most 20 attempts each.
      const updaters = 20;
      await Promise.all(
        Array.from({ length: updaters }, () =>
          table.update(namespace, bump, { maxAttempts: updaters }),
        ),
      );
      expect(await table.get(namespace)).toEqual({ attempt_count: 22 });

      const unchanged = await table.update(namespace, (current) => {
        if (current !== undefined) {
          current.attempt_count = -1; // edits in place, then declines to write
        }
        return undefined;
      });
      expect(unchanged).toEqual({ attempt_count: 22 });
      expect(await table.get(namespace)).toEqual({ attempt_count: 22 });

      // A competing writer that always gets in between the read and the swap.
      let interference = 100;
      const contended = table.update(
        namespace,
        (current) => {
          void backend.put({
            // contract-gate-ignore-next-line: simulates another writer going around the handle
            key: Buffer.from(`downloader:domain_runtime:${namespace}`),
            value: Buffer.from(JSON.stringify({ attempt_count: (interference += 1) })),
          });
          return bump(current);
        },
        { maxAttempts: 3 },
      );
      await expect(contended).rejects.toThrow(UpdateConflictError);
      await expect(table.put(namespace, { attempt_count: 1 }, { ttlSeconds: 1.5 })).rejects.toThrow(
        RangeError,
      );
    });
  });
}
