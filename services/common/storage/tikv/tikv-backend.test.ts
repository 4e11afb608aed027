import { TikvBackend } from './tikv-backend';
import {
  DoubleWithBackend,
  FAST_BACKOFF,
  key,
  startDoubleWithBackend,
} from './test-double/double-backend-fixture';
import { startTikvTestDouble } from './test-double/tikv-test-double';
import {
  TikvConfigurationError,
  TikvRetryBudgetExhaustedError,
  TikvTtlNotEnabledError,
} from './tikv-errors';

const texts = (values: Array<Buffer | undefined>): Array<string | undefined> =>
  values.map((value) => value?.toString());

describe('TikvBackend on the test double: raw KV semantics', () => {
  let fixture: DoubleWithBackend;
  beforeEach(async () => {
    fixture = await startDoubleWithBackend();
  });
  afterEach(() => fixture.stop());

  it('puts, gets and deletes single keys, keeping empty values distinct from absent ones', async () => {
    const { backend } = fixture;
    await backend.put({ key: key('alpha'), value: key('1') });
    await backend.put({ key: key('empty'), value: Buffer.alloc(0) });
    expect((await backend.get(key('alpha')))?.toString()).toBe('1');
    expect(await backend.get(key('empty'))).toEqual(Buffer.alloc(0));
    expect(await backend.get(key('missing'))).toBeUndefined();
    await backend.delete(key('alpha'));
    await backend.delete(key('never-written'));
    expect(await backend.get(key('alpha'))).toBeUndefined();
  });

  it('returns getMany results in input order, with duplicates and misses', async () => {
    const { backend } = fixture;
    await backend.putMany(['a', 'h', 'x'].map((k) => ({ key: key(k), value: key(`${k}!`) })));
    const values = await backend.getMany(['x', 'nope', 'a', 'x', 'h'].map(key));
    expect(texts(values)).toEqual(['x!', undefined, 'a!', 'x!', 'h!']);
  });

  it('keeps the last write when putMany repeats a key', async () => {
    const { backend } = fixture;
    await backend.putMany([
      { key: key('dup'), value: key('first') },
      { key: key('other'), value: key('o') },
      { key: key('dup'), value: key('last') },
    ]);
    expect((await backend.get(key('dup')))?.toString()).toBe('last');
  });

  it('scans [start, end) in byte order across regions, honouring limit and the exclusive end', async () => {
    const { backend } = fixture;
    const all = 'abcdefghijklmnopqrstuvwxyz'.split('');
    await backend.putMany(all.map((k) => ({ key: key(k), value: key(k.toUpperCase()) })));
    const keysOf = async (start: string, end: string, limit: number) =>
      (await backend.scan({ start: key(start), end: key(end), limit })).map((e) =>
        e.key.toString(),
      );

    expect(await keysOf('a', '{', 100)).toEqual(all);
    expect(await keysOf('e', 'r', 100)).toEqual('efghijklmnopq'.split(''));
    expect(await keysOf('c', '{', 7)).toEqual('cdefghi'.split(''));
    expect(await keysOf('f', 'g', 10)).toEqual(['f']);
    expect(await keysOf('q', 'q', 10)).toEqual([]);
    await expect(backend.scan({ start: key('a'), end: key('b'), limit: 0 })).rejects.toThrow(
      RangeError,
    );
  });

  it('compares and swaps: insert-if-absent, replace-if-equal, and reports the previous value', async () => {
    const { backend } = fixture;
    const k = key('lease');
    expect(await backend.compareAndSwap(k, undefined, key('v1'))).toEqual({
      isSwapped: true,
      previous: undefined,
    });
    const lost = await backend.compareAndSwap(k, undefined, key('other'));
    expect(lost.isSwapped).toBe(false);
    expect(lost.previous?.toString()).toBe('v1');
    const mismatch = await backend.compareAndSwap(k, key('v0'), key('v2'));
    expect(mismatch.isSwapped).toBe(false);
    const won = await backend.compareAndSwap(k, key('v1'), key('v2'));
    expect(won.isSwapped).toBe(true);
    expect((await backend.get(k))?.toString()).toBe('v2');
    // An empty expected value means "currently empty", not "absent".
    await backend.put({ key: key('blank'), value: Buffer.alloc(0) });
    expect((await backend.compareAndSwap(key('blank'), Buffer.alloc(0), key('x'))).isSwapped).toBe(
      true,
    );
  });

  it('sends every write in atomic mode (for_cas), as CAS linearizability requires', async () => {
    const { backend, double } = fixture;
    await backend.put({ key: key('a'), value: key('1') });
    await backend.putMany([
      { key: key('b'), value: key('2') },
      { key: key('q'), value: key('3') },
    ]);
    await backend.compareAndSwap(key('a'), key('1'), key('4'));
    await backend.delete(key('a'));
    await backend.deleteMany([key('b'), key('q')]);
    const writes = double.requestLog.filter((r) => /Put|Delete|Compare/.test(r.method));
    expect(writes.length).toBeGreaterThanOrEqual(5);
    expect(double.stats.writesWithoutForCas).toBe(0);
  });

  it('expires rows written with ttlSeconds (put, putMany, CAS) and treats them as absent', async () => {
    const { backend, double } = fixture;
    await backend.put({ key: key('short'), value: key('s'), ttlSeconds: 5 });
    await backend.putMany([
      { key: key('batch-short'), value: key('b'), ttlSeconds: 5 },
      { key: key('batch-forever'), value: key('f') },
    ]);
    await backend.compareAndSwap(key('cas-short'), undefined, key('c'), 5);
    double.advanceClock(3);
    expect(texts(await backend.getMany(['short', 'batch-short', 'cas-short'].map(key)))).toEqual([
      's',
      'b',
      'c',
    ]);
    double.advanceClock(3);
    expect(await backend.get(key('short'))).toBeUndefined();
    expect(texts(await backend.getMany(['batch-short', 'batch-forever'].map(key)))).toEqual([
      undefined,
      'f',
    ]);
    const scanned = await backend.scan({ start: key('a'), end: key('z'), limit: 10 });
    expect(scanned.map((e) => e.key.toString())).toEqual(['batch-forever']);
    expect(
      (await backend.compareAndSwap(key('cas-short'), undefined, key('again'))).isSwapped,
    ).toBe(true);
  });

  it('never expires a row earlier than ttlSeconds despite TiKV counting whole seconds', async () => {
    const { backend, double } = fixture;
    await backend.put({ key: key('lease'), value: key('mine'), ttlSeconds: 1 });
    double.advanceClock(0.999);
    expect((await backend.get(key('lease')))?.toString()).toBe('mine');
    double.advanceClock(1.001);
    expect(await backend.get(key('lease'))).toBeUndefined();
  });

  it('rejects invalid arguments before sending anything', async () => {
    const { backend, double } = fixture;
    double.clearRequestLog();
    await expect(backend.put({ key: Buffer.alloc(0), value: key('v') })).rejects.toThrow(
      RangeError,
    );
    await expect(backend.put({ key: key('k'), value: key('v'), ttlSeconds: -1 })).rejects.toThrow(
      RangeError,
    );
    await expect(
      backend.putMany([
        { key: key('ok'), value: key('v') },
        { key: Buffer.alloc(0), value: key('v') },
      ]),
    ).rejects.toThrow(RangeError);
    expect(double.requestLog).toEqual([]);
  });

  it('refuses use after close', async () => {
    await fixture.backend.close();
    await expect(fixture.backend.get(key('a'))).rejects.toThrow(/closed/);
  });
});

describe('TikvBackend on the test double: TTL disabled on the server', () => {
  let fixture: DoubleWithBackend;
  beforeEach(async () => {
    fixture = await startDoubleWithBackend({ ttlEnabled: false });
  });
  afterEach(() => fixture.stop());

  it('explains how to enable TTL, writes nothing, and never probes with RawGetKeyTTL', async () => {
    const { backend, double } = fixture;
    const attempts = [
      backend.put({ key: key('a'), value: key('1'), ttlSeconds: 30 }),
      backend.putMany([{ key: key('b'), value: key('2'), ttlSeconds: 30 }]),
      backend.compareAndSwap(key('c'), undefined, key('3'), 30),
    ];
    for (const attempt of attempts) {
      await expect(attempt).rejects.toThrow(TikvTtlNotEnabledError);
    }
    await expect(backend.put({ key: key('a'), value: key('1'), ttlSeconds: 30 })).rejects.toThrow(
      /enable-ttl = true.*before the first start/,
    );
    expect(texts(await backend.getMany(['a', 'b', 'c'].map(key)))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    await backend.put({ key: key('a'), value: key('no-ttl') });
    expect((await backend.get(key('a')))?.toString()).toBe('no-ttl');
    expect(double.stats.ttlProbesOnNonTtlServer).toBe(0);
  });
});

describe('TikvBackend: 64-bit ids and cluster identity', () => {
  it('keeps cluster, region, peer and store ids above 2^53 exact end to end', async () => {
    const clusterId = '18446744073709551557'; // close to 2^64: wrong if ever parsed as a double
    const fixture = await startDoubleWithBackend({ clusterId });
    try {
      const { backend, double } = fixture;
      expect(backend.clusterId).toBe(clusterId);
      expect(Number(clusterId).toString()).not.toBe(clusterId);
      await backend.putMany(['a', 'h', 'x'].map((k) => ({ key: key(k), value: key(k) })));
      expect(texts(await backend.getMany(['a', 'h', 'x'].map(key)))).toEqual(['a', 'h', 'x']);
      const storeRequests = double.requestLog.filter((r) => r.target.startsWith('store:'));
      const expectedRegionIds = new Set(['a', 'h', 'x'].map((k) => double.regionIdOf(key(k))));
      expect(new Set(storeRequests.map((r) => r.regionId))).toEqual(expectedRegionIds);
      expect(storeRequests.every((r) => r.outcome === 'ok')).toBe(true);
      for (const store of double.stores) expect(BigInt(store.id) > 2n ** 53n).toBe(true);
    } finally {
      await fixture.stop();
    }
  });

  it('refuses PD endpoints that belong to different clusters', async () => {
    const first = await startTikvTestDouble({ clusterId: '7153087019074699621' });
    const second = await startTikvTestDouble({ clusterId: '7153087019074699622' });
    try {
      await expect(
        TikvBackend.connect({ pdEndpoints: [first.pdEndpoints[0], second.pdEndpoints[0]] }),
      ).rejects.toThrow(TikvConfigurationError);
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('gives up connecting to an unreachable PD within the retry budget', async () => {
    const started = Date.now();
    await expect(
      TikvBackend.connect({
        pdEndpoints: ['127.0.0.1:1'],
        retryBudgetMs: 300,
        backoff: FAST_BACKOFF,
      }),
    ).rejects.toThrow(TikvRetryBudgetExhaustedError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
