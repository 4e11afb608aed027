import { keySuccessor, prefixEnd } from '../key-range';
import type { OrderedKeyValueBackend } from '../ordered-key-value-backend';
import { eventually, type ConformanceContext } from './conformance-context';

/*
 * The OrderedKeyValueBackend contract, tested through the interface only. Keys are built from a
 * per-test namespace so the tests neither see nor disturb each other's rows.
 */

/** How long a 1-second TTL may take to show: TiKV checks expiry at second granularity. */
const TTL_EXPIRY_DEADLINE_MS = 5_000;

function bytes(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

function keyspaceOf(context: ConformanceContext): {
  key: (suffix: string | Buffer) => Buffer;
  scanAll: (backend: OrderedKeyValueBackend) => Promise<string[]>;
} {
  const prefix = bytes(`${context.namespace()}/`);
  return {
    key: (suffix) => Buffer.concat([prefix, typeof suffix === 'string' ? bytes(suffix) : suffix]),
    scanAll: async (backend) =>
      (await backend.scan({ start: prefix, end: prefixEnd(prefix), limit: 1000 })).map((entry) =>
        entry.key.subarray(prefix.length).toString('hex'),
      ),
  };
}

export function describeOrderedKeyValueConformance(context: ConformanceContext): void {
  describe('ordered key-value backend', () => {
    test('get, put, overwrite and delete a single key', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      expect(await backend.get(key('row'))).toBeUndefined();
      await backend.put({ key: key('row'), value: bytes('first') });
      expect(await backend.get(key('row'))).toEqual(bytes('first'));
      await backend.put({ key: key('row'), value: bytes('second') });
      expect(await backend.get(key('row'))).toEqual(bytes('second'));
      await backend.delete(key('row'));
      expect(await backend.get(key('row'))).toBeUndefined();
      await expect(backend.delete(key('never-written'))).resolves.toBeUndefined();
    });

    test('values are binary-safe', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      const everyByte = Buffer.from(Array.from({ length: 256 }, (_, index) => 255 - index));
      await backend.put({ key: key('binary'), value: everyByte });
      expect(await backend.get(key('binary'))).toEqual(everyByte);
    });

    test('batch get, put and delete keep order and report missing keys as undefined', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      await backend.putMany([
        { key: key('a'), value: bytes('A') },
        { key: key('b'), value: bytes('B') },
        { key: key('c'), value: bytes('C') },
      ]);
      expect(await backend.getMany([key('c'), key('missing'), key('a'), key('c')])).toEqual([
        bytes('C'),
        undefined,
        bytes('A'),
        bytes('C'),
      ]);
      expect(await backend.getMany([])).toEqual([]);
      await backend.deleteMany([key('a'), key('missing'), key('c')]);
      expect(await backend.getMany([key('a'), key('b'), key('c')])).toEqual([
        undefined,
        bytes('B'),
        undefined,
      ]);
    });

    test('scan returns rows in unsigned byte order, including bytes >= 0x80', async () => {
      const backend = context.backend();
      const { key, scanAll } = keyspaceOf(context);
      const suffixes = [
        Buffer.from([0xff]),
        Buffer.from([0x80]),
        Buffer.from([0x7f, 0xff]),
        Buffer.from([0x00]),
        Buffer.from([0x61, 0x00]),
        Buffer.from([0x61]),
        Buffer.from([0x61, 0x62]),
        Buffer.from([0xc3, 0xa9]), // "é" in UTF-8
        Buffer.from([0x80, 0x00]),
        Buffer.from([0x01]),
      ];
      await backend.putMany(suffixes.map((suffix) => ({ key: key(suffix), value: suffix })));
      const expected = [...suffixes].sort(Buffer.compare).map((suffix) => suffix.toString('hex'));
      expect(await scanAll(backend)).toEqual(expected);
      expect(expected.slice(0, 3)).toEqual(['00', '01', '61']);
    });

    test('scan honours the limit, includes start, excludes end and resumes after a key', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      const names = Array.from({ length: 10 }, (_, index) => `row-${index}`);
      await backend.putMany(names.map((name) => ({ key: key(name), value: bytes(name) })));
      const text = (entries: Array<{ value: Buffer }>) =>
        entries.map((entry) => entry.value.toString());

      const firstPage = await backend.scan({ start: key('row-2'), end: key('row-7'), limit: 3 });
      expect(text(firstPage)).toEqual(['row-2', 'row-3', 'row-4']);
      const secondPage = await backend.scan({
        start: keySuccessor(firstPage[firstPage.length - 1].key),
        end: key('row-7'),
        limit: 3,
      });
      expect(text(secondPage)).toEqual(['row-5', 'row-6']);
      expect(await backend.scan({ start: key('row-7'), end: key('row-7'), limit: 5 })).toEqual([]);
      expect(await backend.scan({ start: key('row-9'), end: key('row-1'), limit: 5 })).toEqual([]);
      expect(
        text(await backend.scan({ start: key('row-9'), end: key('row-9~'), limit: 5 })),
      ).toEqual(['row-9']);
    });

    test('forEachDecoded visits the live rows of [start, end) in order, decoded where read', async () => {
      const backend = context.backend();
      if (backend.forEachDecoded === undefined) {
        // Optional for a backend whose reads are not synchronous; every embedded one has it.
        expect(backend.backendName).toBe('tikv');
        return;
      }
      const { key } = keyspaceOf(context);
      const names = Array.from({ length: 8 }, (_, index) => `row-${index}`);
      await backend.putMany(names.map((name) => ({ key: key(name), value: bytes(name) })));
      await backend.put({ key: key('row-3'), value: bytes('row-3 again'), ttlSeconds: 600 });
      await backend.delete(key('row-5'));
      const visitedBetween = (start: Buffer, end: Buffer) => {
        const visited: string[] = [];
        backend.forEachDecoded?.(
          { start, end },
          (stored, start) => stored.subarray(start).toString('utf8'),
          (text) => visited.push(text),
        );
        return visited;
      };
      expect(visitedBetween(key('row-1'), key('row-7'))).toEqual([
        'row-1',
        'row-2',
        'row-3 again',
        'row-4',
        'row-6',
      ]);
      expect(visitedBetween(key('row-7'), key('row-7'))).toEqual([]);
      expect(visitedBetween(key('row-9'), key('row-1'))).toEqual([]);

      // A visitor's error ends the pass and reaches the caller; the backend reads and writes on.
      const failing = new Error('visitor failed');
      let visitCount = 0;
      expect(() =>
        backend.forEachDecoded?.(
          { start: key('row-0'), end: key('row-9') },
          (stored) => stored,
          () => {
            visitCount += 1;
            if (visitCount === 2) throw failing;
          },
        ),
      ).toThrow(failing);
      expect(visitCount).toBe(2);
      await backend.put({ key: key('row-8'), value: bytes('row-8') });
      expect(visitedBetween(key('row-7'), key('row-9'))).toEqual(['row-7', 'row-8']);
    });

    test('deleteRange removes exactly the rows in [start, end), in unsigned byte order', async () => {
      const backend = context.backend();
      const { key, scanAll } = keyspaceOf(context);
      const suffixes = [
        Buffer.from('a'),
        Buffer.from('b'),
        Buffer.from([0x62, 0x00]),
        Buffer.from([0x62, 0xff]),
        Buffer.from('c'),
        Buffer.from([0x80]),
        Buffer.from([0xc3, 0xa9]),
        Buffer.from([0xff]),
      ];
      await backend.putMany(
        suffixes.map((suffix, index) => ({
          key: key(suffix),
          value: suffix,
          // A row with a TTL is deleted like any other.
          ttlSeconds: index % 2 === 0 ? 600 : undefined,
        })),
      );

      await backend.deleteRange({ start: key('b'), end: key('c') });
      expect(await scanAll(backend)).toEqual(['61', '63', '80', 'c3a9', 'ff']);
      await backend.deleteRange({ start: key(Buffer.from([0x80])), end: key(Buffer.from([0xff])) });
      expect(await scanAll(backend)).toEqual(['61', '63', 'ff']);
      expect(await backend.getMany([key('b'), key('c'), key(Buffer.from([0xc3, 0xa9]))])).toEqual([
        undefined,
        bytes('c'),
        undefined,
      ]);
    });

    test('deleteRange of an empty or inverted range changes nothing', async () => {
      const backend = context.backend();
      const { key, scanAll } = keyspaceOf(context);
      await backend.putMany(
        ['a', 'b', 'c'].map((name) => ({ key: key(name), value: bytes(name) })),
      );
      await backend.deleteRange({ start: key('b'), end: key('b') });
      await backend.deleteRange({ start: key('c'), end: key('a') });
      await backend.deleteRange({ start: key('x'), end: key('z') });
      // An empty end is the smallest key, not "unbounded": nothing lies below it.
      await backend.deleteRange({ start: key('a'), end: Buffer.alloc(0) });
      expect(await scanAll(backend)).toEqual(
        ['a', 'b', 'c'].map((name) => bytes(name).toString('hex')),
      );
    });

    test('rows deleted by deleteRange are absent for put and compare-and-swap afterwards', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      await backend.putMany([
        { key: key('lease-1'), value: bytes('held') },
        { key: key('lease-2'), value: bytes('held') },
      ]);
      await backend.deleteRange({ start: key('lease-'), end: key('lease.') });
      expect(await backend.compareAndSwap(key('lease-1'), undefined, bytes('again'))).toEqual({
        isSwapped: true,
        previous: undefined,
      });
      await backend.put({ key: key('lease-2'), value: bytes('new') });
      expect(await backend.getMany([key('lease-1'), key('lease-2')])).toEqual([
        bytes('again'),
        bytes('new'),
      ]);
    });

    test('TTL: expired rows vanish from get, getMany, scan, forEachDecoded and compare-and-swap', async () => {
      const backend = context.backend();
      const { key, scanAll } = keyspaceOf(context);
      await backend.putMany([
        { key: key('short'), value: bytes('short'), ttlSeconds: 1 },
        { key: key('long'), value: bytes('long'), ttlSeconds: 600 },
        { key: key('forever'), value: bytes('forever') },
        { key: key('renewed'), value: bytes('renewed'), ttlSeconds: 1 },
      ]);
      // Rewriting without a TTL must clear the TTL.
      await backend.put({ key: key('renewed'), value: bytes('renewed') });
      const swap = await backend.compareAndSwap(key('swapped'), undefined, bytes('swapped'), 1);
      expect(swap.isSwapped).toBe(true);
      expect(await backend.get(key('short'))).toEqual(bytes('short'));
      expect(await backend.get(key('swapped'))).toEqual(bytes('swapped'));

      const isExpired = await eventually(
        async () =>
          (await backend.get(key('short'))) === undefined &&
          (await backend.get(key('swapped'))) === undefined,
        TTL_EXPIRY_DEADLINE_MS,
      );
      expect(isExpired).toBe(true);
      expect(await backend.getMany([key('short'), key('long'), key('forever')])).toEqual([
        undefined,
        bytes('long'),
        bytes('forever'),
      ]);
      expect(await scanAll(backend)).toEqual(
        ['forever', 'long', 'renewed'].map((name) => bytes(name).toString('hex')),
      );
      const visited: string[] = [];
      backend.forEachDecoded?.(
        { start: key(''), end: prefixEnd(key('')) },
        (stored, start) => stored.subarray(start).toString('utf8'),
        (text) => visited.push(text),
      );
      expect(visited).toEqual(backend.forEachDecoded ? ['forever', 'long', 'renewed'] : []);
      // An expired row is absent: it cannot match its old value, and "only if absent" succeeds.
      const stale = await backend.compareAndSwap(key('short'), bytes('short'), bytes('late'));
      expect(stale).toEqual({ isSwapped: false, previous: undefined });
      const fresh = await backend.compareAndSwap(key('short'), undefined, bytes('again'));
      expect(fresh).toEqual({ isSwapped: true, previous: undefined });
      expect(await backend.get(key('short'))).toEqual(bytes('again'));
    });

    test('compare-and-swap: absent to value, value to value, mismatch returns the previous value', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      expect(await backend.compareAndSwap(key('cas'), undefined, bytes('v1'))).toEqual({
        isSwapped: true,
        previous: undefined,
      });
      expect(await backend.compareAndSwap(key('cas'), undefined, bytes('v2'))).toEqual({
        isSwapped: false,
        previous: bytes('v1'),
      });
      expect(await backend.compareAndSwap(key('cas'), bytes('v1'), bytes('v2'))).toEqual({
        isSwapped: true,
        previous: bytes('v1'),
      });
      expect(await backend.compareAndSwap(key('cas'), bytes('v1'), bytes('v3'))).toEqual({
        isSwapped: false,
        previous: bytes('v2'),
      });
      expect(await backend.get(key('cas'))).toEqual(bytes('v2'));
      expect(
        (await backend.compareAndSwap(key('missing'), bytes('v1'), bytes('v2'))).isSwapped,
      ).toBe(false);
      expect(await backend.get(key('missing'))).toBeUndefined();
    });

    test('concurrent compare-and-swap on one key: exactly one winner per round', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      const rounds = 20;
      const callers = 16;
      let current: Buffer | undefined;
      for (let round = 0; round < rounds; round += 1) {
        const expected = current;
        const outcomes = await Promise.all(
          Array.from({ length: callers }, (_, caller) =>
            backend.compareAndSwap(
              key('contended'),
              expected,
              bytes(`round-${round}-caller-${caller}`),
            ),
          ),
        );
        const winners = outcomes.flatMap((outcome, caller) => (outcome.isSwapped ? [caller] : []));
        expect(winners).toHaveLength(1);
        const winnerValue = bytes(`round-${round}-caller-${winners[0]}`);
        for (const [caller, outcome] of outcomes.entries()) {
          expect(outcome.previous).toEqual(caller === winners[0] ? expected : winnerValue);
        }
        current = winnerValue;
      }
      expect(await backend.get(key('contended'))).toEqual(current);
    });

    test('compare-and-swap retry loops lose no increments under contention', async () => {
      const backend = context.backend();
      const { key } = keyspaceOf(context);
      const workers = 8;
      const incrementsPerWorker = 25;
      const increment = async () => {
        let current = await backend.get(key('counter'));
        for (;;) {
          const next = bytes(String(Number(current?.toString() ?? '0') + 1));
          const outcome = await backend.compareAndSwap(key('counter'), current, next);
          if (outcome.isSwapped) {
            return;
          }
          current = outcome.previous;
        }
      };
      await Promise.all(
        Array.from({ length: workers }, async () => {
          for (let count = 0; count < incrementsPerWorker; count += 1) {
            await increment();
          }
        }),
      );
      expect((await backend.get(key('counter')))?.toString()).toBe(
        String(workers * incrementsPerWorker),
      );
    });
  });
}
