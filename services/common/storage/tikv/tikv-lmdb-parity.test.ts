import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LmdbBackend } from '../lmdb-backend';
import { OrderedKeyValueBackend } from '../ordered-key-value-backend';
import { DoubleWithBackend, startDoubleWithBackend } from './test-double/double-backend-fixture';

const b = (text: string): Buffer => Buffer.from(text);
const hex = (value: Buffer | undefined): string | undefined => value?.toString('hex');

/**
 * Runs one script of operations and records every observable result (values, scan rows, CAS
 * outcomes, error types) as plain data, so two backends can be compared with one toEqual.
 */
async function runScript(backend: OrderedKeyValueBackend): Promise<unknown[]> {
  const observed: unknown[] = [];
  const record = async (label: string, action: () => Promise<unknown>) => {
    try {
      observed.push([label, normalise(await action())]);
    } catch (error) {
      observed.push([label, 'threw', (error as Error).constructor.name]);
    }
  };
  const highBytes = Buffer.from([0x80, 0xff, 0x00]);

  await record('put', () => backend.put({ key: b('p:a'), value: b('1') }));
  await record('put empty value', () => backend.put({ key: b('p:empty'), value: Buffer.alloc(0) }));
  await record('put high bytes', () => backend.put({ key: highBytes, value: highBytes }));
  await record('putMany with a repeated key', () =>
    backend.putMany([
      { key: b('p:h'), value: b('first') },
      { key: b('p:x'), value: b('x'), ttlSeconds: 600 },
      { key: b('p:h'), value: b('last') },
      { key: b('p:b'), value: b('b') },
    ]),
  );
  await record('get', () => backend.get(b('p:h')));
  await record('get empty value', () => backend.get(b('p:empty')));
  await record('get missing', () => backend.get(b('p:missing')));
  await record('getMany', () => backend.getMany([b('p:x'), b('p:nope'), highBytes, b('p:a')]));
  await record('scan all', () => backend.scan({ start: b('p:'), end: b('p;'), limit: 100 }));
  await record('scan limited', () => backend.scan({ start: b('p:b'), end: b('p;'), limit: 2 }));
  await record('scan empty range', () =>
    backend.scan({ start: b('p:z'), end: b('p:a'), limit: 5 }),
  );
  await record('scan above 0x7f', () =>
    backend.scan({ start: Buffer.from([0x7f]), end: Buffer.from([0xff, 0xff]), limit: 5 }),
  );
  await record('cas insert-if-absent on present', () =>
    backend.compareAndSwap(b('p:a'), undefined, b('no')),
  );
  await record('cas insert-if-absent', () => backend.compareAndSwap(b('p:c'), undefined, b('c1')));
  await record('cas mismatch', () => backend.compareAndSwap(b('p:c'), b('zz'), b('c2')));
  await record('cas match', () => backend.compareAndSwap(b('p:c'), b('c1'), b('c2')));
  await record('cas on empty value', () =>
    backend.compareAndSwap(b('p:empty'), Buffer.alloc(0), b('filled')),
  );
  await record('delete', () => backend.delete(b('p:a')));
  await record('delete missing', () => backend.delete(b('p:never')));
  await record('deleteMany', () => backend.deleteMany([b('p:b'), b('p:x'), b('p:none')]));
  await record('scan after deletes', () =>
    backend.scan({ start: b('p:'), end: b('p;'), limit: 100 }),
  );
  await record('putMany across regions', () =>
    backend.putMany(['d', 'f', 'g', 'h', 'o', 'q'].map((k) => ({ key: b(k), value: b(k) }))),
  );
  await record('deleteRange across regions', () =>
    backend.deleteRange({ start: b('e'), end: b('q') }),
  );
  await record('deleteRange inverted', () => backend.deleteRange({ start: b('q'), end: b('d') }));
  await record('scan after deleteRange', () =>
    backend.scan({ start: b('a'), end: b('z'), limit: 9 }),
  );
  await record('empty key', () => backend.get(Buffer.alloc(0)));
  await record('scan limit 0', () => backend.scan({ start: b('a'), end: b('b'), limit: 0 }));
  await record('negative ttl', () => backend.put({ key: b('p:t'), value: b('t'), ttlSeconds: -1 }));
  return observed;
}

function normalise(result: unknown): unknown {
  if (result === undefined) return 'undefined';
  if (Buffer.isBuffer(result)) return hex(result);
  if (Array.isArray(result)) return result.map(normalise);
  if (typeof result === 'object' && result !== null) {
    return Object.fromEntries(Object.entries(result).map(([k, v]) => [k, normalise(v)]));
  }
  return result;
}

describe('TikvBackend (test double) and LmdbBackend observe the same results', () => {
  let directory: string;
  let lmdb: LmdbBackend;
  let tikv: DoubleWithBackend;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'tikv-lmdb-parity-'));
    lmdb = await LmdbBackend.open(directory);
    tikv = await startDoubleWithBackend();
  });
  afterAll(async () => {
    await lmdb.close();
    await tikv.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('for a script of puts, batches, scans, compare-and-swaps, deletes and invalid calls', async () => {
    const fromLmdb = await runScript(lmdb);
    const fromTikv = await runScript(tikv.backend);
    expect(fromTikv).toEqual(fromLmdb);
    // Guard against a vacuous comparison (e.g. both sides throwing everywhere).
    expect(fromLmdb.filter((entry) => (entry as unknown[])[1] === 'threw')).toHaveLength(3);
  });
});
