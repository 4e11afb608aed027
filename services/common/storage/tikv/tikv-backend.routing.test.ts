import { DoubleRequestRecord } from './test-double/double-request-log';
import {
  DoubleWithBackend,
  FAST_BACKOFF,
  key,
  startDoubleWithBackend,
} from './test-double/double-backend-fixture';
import { TikvAmbiguousResultError, TikvRetryBudgetExhaustedError } from './tikv-errors';

/** Store ids in the double, leader of the first region first. */
function otherStore(fixture: DoubleWithBackend, storeId: string | undefined): string {
  return fixture.double.stores.find((store) => store.id !== storeId)!.id;
}

const storeCalls = (log: readonly DoubleRequestRecord[], method: string) =>
  log.filter((record) => record.target.startsWith('store:') && record.method === method);
const pdCalls = (log: readonly DoubleRequestRecord[], method: string) =>
  log.filter((record) => record.target.startsWith('pd:') && record.method === method);

describe('TikvBackend routing and region errors (test double)', () => {
  let fixture: DoubleWithBackend;
  beforeEach(async () => {
    fixture = await startDoubleWithBackend();
  });
  afterEach(() => fixture.stop());

  it('follows a leader move from NotLeader{leader} immediately, without asking PD', async () => {
    const { backend, double } = fixture;
    const k = key('b-leader');
    await backend.put({ key: k, value: key('v') });
    const oldLeader = double.regionLeaderStoreOf(k);
    const newLeader = otherStore(fixture, oldLeader);
    double.transferLeader(k, newLeader);
    double.clearRequestLog();

    expect((await backend.get(k))?.toString()).toBe('v');
    expect(storeCalls(double.requestLog, 'RawGet').map((r) => [r.target, r.outcome])).toEqual([
      [`store:${oldLeader}`, 'not_leader'],
      [`store:${newLeader}`, 'ok'],
    ]);
    expect(pdCalls(double.requestLog, 'GetRegion')).toHaveLength(0);
  });

  it('waits out a leader election (NotLeader without leader), reloading the region from PD', async () => {
    const { backend, double } = fixture;
    const k = key('c-election');
    await backend.put({ key: k, value: key('v') });
    const leader = double.regionLeaderStoreOf(k)!;
    double.dropLeader(k);
    double.clearRequestLog();
    const elected = setTimeout(() => double.transferLeader(k, otherStore(fixture, leader)), 60);

    try {
      expect((await backend.get(k))?.toString()).toBe('v');
    } finally {
      clearTimeout(elected);
    }
    const outcomes = storeCalls(double.requestLog, 'RawGet').map((r) => r.outcome);
    expect(outcomes[0]).toBe('not_leader');
    expect(outcomes[outcomes.length - 1]).toBe('ok');
    expect(pdCalls(double.requestLog, 'GetRegion').length).toBeGreaterThanOrEqual(1);
  });

  it('uses the regions carried by EpochNotMatch after a split, without asking PD', async () => {
    const { backend, double } = fixture;
    await backend.put({ key: key('a'), value: key('left') });
    await backend.put({ key: key('e'), value: key('right') });
    const { rightRegionId } = double.splitRegion(key('c'));
    double.clearRequestLog();

    expect((await backend.get(key('e')))?.toString()).toBe('right');
    expect(storeCalls(double.requestLog, 'RawGet').map((r) => r.outcome)).toEqual([
      'epoch_not_match',
      'ok',
    ]);
    expect(storeCalls(double.requestLog, 'RawGet')[1].regionId).toBe(rightRegionId);
    expect(pdCalls(double.requestLog, 'GetRegion')).toHaveLength(0);
    // The left half was learned from the same error: no further PD lookup either.
    expect((await backend.get(key('a')))?.toString()).toBe('left');
    expect(pdCalls(double.requestLog, 'GetRegion')).toHaveLength(0);
  });

  it('re-resolves a store whose address now answers as another store (StoreNotMatch)', async () => {
    const { backend, double } = fixture;
    const [first, second] = double.stores.map((store) => store.id);
    const onFirst = ['a', 'h', 'x'].map(key).find((k) => double.regionLeaderStoreOf(k) === first)!;
    const onSecond = ['a', 'h', 'x']
      .map(key)
      .find((k) => double.regionLeaderStoreOf(k) === second)!;
    await backend.put({ key: onFirst, value: key('1') });
    await backend.put({ key: onSecond, value: key('2') });
    double.swapStoreAddresses(first, second);
    double.clearRequestLog();

    expect((await backend.get(onFirst))?.toString()).toBe('1');
    expect(storeCalls(double.requestLog, 'RawGet').map((r) => r.outcome)).toEqual([
      'store_not_match',
      'ok',
    ]);
    expect(pdCalls(double.requestLog, 'GetStore').length).toBeGreaterThanOrEqual(1);
    expect((await backend.get(onSecond))?.toString()).toBe('2');
  });

  it('backs off and retries while a store is busy', async () => {
    const { backend, double } = fixture;
    const k = key('d-busy');
    await backend.put({ key: k, value: key('v') });
    double.makeStoreBusy(double.regionLeaderStoreOf(k)!, 3);
    double.clearRequestLog();

    expect((await backend.get(k))?.toString()).toBe('v');
    expect(storeCalls(double.requestLog, 'RawGet').map((r) => r.outcome)).toEqual([
      'server_is_busy',
      'server_is_busy',
      'server_is_busy',
      'ok',
    ]);
  });

  it('recovers from StaleCommand, RegionNotFound, KeyNotInRegion and message-only region errors', async () => {
    const { backend, double } = fixture;
    const k = key('e-misc');
    await backend.put({ key: k, value: key('v') });
    const leader = double.regionLeaderStoreOf(k)!;
    double.injectRegionErrors(leader, [
      { message: 'stale command', stale_command: {} },
      { message: 'region not found', region_not_found: { region_id: double.regionIdOf(k) } },
      {
        message: 'key not in region',
        key_not_in_region: {
          key: k,
          region_id: double.regionIdOf(k),
          start_key: Buffer.alloc(0),
          end_key: Buffer.alloc(0),
        },
      },
      { message: 'TiKV is Closing' },
    ]);
    double.clearRequestLog();

    expect((await backend.get(k))?.toString()).toBe('v');
    expect(storeCalls(double.requestLog, 'RawGet').map((r) => r.outcome)).toEqual([
      'stale_command',
      'region_not_found',
      'key_not_in_region',
      'message_only',
      'ok',
    ]);
  });

  it('splits batches per region, sends them to each leader and reassembles input order', async () => {
    const { backend, double } = fixture;
    const keys = ['z1', 'a1', 'h1', 'a2', 'q1', 'h2'];
    await backend.putMany(keys.map((k) => ({ key: key(k), value: key(`v-${k}`) })));
    const putRegions = new Set(storeCalls(double.requestLog, 'RawBatchPut').map((r) => r.regionId));
    const putStores = new Set(storeCalls(double.requestLog, 'RawBatchPut').map((r) => r.target));
    expect(putRegions.size).toBe(3);
    expect(putStores.size).toBe(2);

    const wanted = ['q1', 'missing', 'a2', 'z1', 'h1'];
    const values = await backend.getMany(wanted.map(key));
    expect(values.map((v) => v?.toString())).toEqual(['v-q1', undefined, 'v-a2', 'v-z1', 'v-h1']);
    expect(storeCalls(double.requestLog, 'RawBatchGet')).toHaveLength(3);

    await backend.deleteMany(['a1', 'h2', 'z1'].map(key));
    expect(storeCalls(double.requestLog, 'RawBatchDelete')).toHaveLength(3);
    const left = await backend.scan({ start: key('a'), end: key('{'), limit: 100 });
    expect(left.map((e) => e.key.toString())).toEqual(['a2', 'h1', 'q1']);
  });

  it('re-plans only the affected batch chunk when its region splits mid-request', async () => {
    const { backend, double } = fixture;
    const keys = ['a1', 'c1', 'e1', 'h1', 'x1'];
    await backend.putMany(keys.map((k) => ({ key: key(k), value: key(k) })));
    let split = false;
    const unsubscribe = double.onStoreRequest(({ method }) => {
      if (method === 'RawBatchGet' && !split) {
        split = true;
        double.splitRegion(key('d'));
      }
    });
    double.clearRequestLog();
    try {
      const values = await backend.getMany(keys.map(key));
      expect(values.map((v) => v?.toString())).toEqual(keys);
    } finally {
      unsubscribe();
    }
    const outcomes = storeCalls(double.requestLog, 'RawBatchGet').map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'epoch_not_match')).toHaveLength(1);
    // 3 original regions + the split half of the first one.
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(4);
  });

  it('returns every row exactly once when regions split while a scan is in progress', async () => {
    const { backend, double } = fixture;
    const all = 'abcdefghijklmnopqrstuvwxyz'.split('');
    await backend.putMany(all.map((k) => ({ key: key(k), value: key(k) })));
    let scans = 0;
    const unsubscribe = double.onStoreRequest(({ method }) => {
      if (method !== 'RawScan') return;
      scans += 1;
      if (scans === 1) double.splitRegion(key('c')); // the region being scanned right now
      if (scans === 3) double.splitRegion(key('k')); // a region further ahead
    });
    double.clearRequestLog();
    try {
      const rows = await backend.scan({ start: key('a'), end: key('{'), limit: 1_000 });
      expect(rows.map((e) => e.key.toString())).toEqual(all);
    } finally {
      unsubscribe();
    }
    const outcomes = storeCalls(double.requestLog, 'RawScan').map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'epoch_not_match').length).toBeGreaterThanOrEqual(1);
  });

  it('deletes a range region by region, cutting each request at the region end', async () => {
    const { backend, double } = fixture;
    const all = 'abcdefghijklmnopqrstuvwxyz'.split('');
    await backend.putMany(all.map((k) => ({ key: key(k), value: key(k) })));
    const splits: Buffer[] = [];
    // The default regions are ["", g), [g, p), [p, ""); one more split lands mid-operation.
    const unsubscribe = double.onStoreRequest(({ method, request }) => {
      if (method !== 'RawDeleteRange') return;
      const { start_key: start, end_key: end } = request as { start_key: Buffer; end_key: Buffer };
      splits.push(Buffer.concat([start, key('..'), end]));
      if (splits.length === 1) double.splitRegion(key('k')); // a region further ahead
    });
    double.clearRequestLog();
    try {
      await backend.deleteRange({ start: key('c'), end: key('t') });
    } finally {
      unsubscribe();
    }
    const rows = await backend.scan({ start: key('a'), end: key('{'), limit: 100 });
    expect(rows.map((row) => row.key.toString())).toEqual([
      'a',
      'b',
      't',
      'u',
      'v',
      'w',
      'x',
      'y',
      'z',
    ]);
    const calls = storeCalls(double.requestLog, 'RawDeleteRange');
    expect(calls.map((call) => call.outcome)).toEqual(['ok', 'epoch_not_match', 'ok', 'ok', 'ok']);
    expect(splits.map(String)).toEqual(['c..g', 'g..p', 'g..k', 'k..p', 'p..t']);
  });

  it('pages a scan beyond 10 240 rows inside one region', async () => {
    const { backend } = fixture;
    const count = 10_300;
    const rows = Array.from({ length: count }, (_, i) => ({
      key: key(`r${String(i).padStart(6, '0')}`),
      value: key(String(i)),
    }));
    await backend.putMany(rows);
    const scanned = await backend.scan({ start: key('r'), end: key('s'), limit: count + 5 });
    expect(scanned).toHaveLength(count);
    expect(scanned[count - 1].key.toString()).toBe(`r${String(count - 1).padStart(6, '0')}`);
  });

  it('re-routes after a store goes down (gRPC UNAVAILABLE) once PD knows the new leader', async () => {
    const { backend, double } = fixture;
    const k = key('f-down');
    await backend.put({ key: k, value: key('v') });
    const deadStore = double.regionLeaderStoreOf(k)!;
    const survivor = otherStore(fixture, deadStore);
    for (const regionKey of ['a', 'h', 'x'].map(key)) double.transferLeader(regionKey, survivor);
    double.stopStore(deadStore);

    expect((await backend.get(k))?.toString()).toBe('v');
    await backend.put({ key: k, value: key('v2') });
    expect((await backend.get(k))?.toString()).toBe('v2');
  });

  it('reports a compare-and-swap cut off mid-flight as ambiguous instead of re-sending it', async () => {
    const { backend, double } = fixture;
    const k = key('g-cas');
    await backend.put({ key: k, value: key('v') });
    const leader = double.regionLeaderStoreOf(k)!;
    double.crashStoreAfterApplying(leader, 'RawCompareAndSwap');

    await expect(backend.compareAndSwap(k, key('v'), key('w'))).rejects.toThrow(
      TikvAmbiguousResultError,
    );
    // The swap did happen: a blind re-send would have reported isSwapped=false.
    double.transferLeader(k, otherStore(fixture, leader));
    expect((await backend.get(k))?.toString()).toBe('w');
    expect(storeCalls(double.requestLog, 'RawCompareAndSwap')).toHaveLength(1);
  });

  it('retries a compare-and-swap that never left the client (store down: connection refused)', async () => {
    const { backend, double } = fixture;
    const k = key('g-cas-refused');
    await backend.put({ key: k, value: key('v') });
    const deadStore = double.regionLeaderStoreOf(k)!;
    double.transferLeader(k, otherStore(fixture, deadStore));
    double.stopStore(deadStore);

    const outcome = await backend.compareAndSwap(k, key('v'), key('w'));
    expect(outcome.isSwapped).toBe(true);
    expect((await backend.get(k))?.toString()).toBe('w');
  });

  it('re-sends an idempotent put that was cut off mid-flight', async () => {
    const { backend, double } = fixture;
    const k = key('g-put');
    const leader = double.regionLeaderStoreOf(k)!;
    await backend.put({ key: k, value: key('v') });
    double.crashStoreAfterApplying(leader, 'RawPut');
    const moveLeader = setTimeout(() => double.transferLeader(k, otherStore(fixture, leader)), 20);
    try {
      await backend.put({ key: k, value: key('v2') });
    } finally {
      clearTimeout(moveLeader);
    }
    expect((await backend.get(k))?.toString()).toBe('v2');
    expect(storeCalls(double.requestLog, 'RawPut').length).toBeGreaterThanOrEqual(3);
  });

  it('fails over to the next PD member when the PD leader stops', async () => {
    const { backend, double } = fixture;
    await backend.put({ key: key('a'), value: key('1') });
    const stoppedAddress = double.stopPdLeader();
    double.clearRequestLog();

    await backend.put({ key: key('x'), value: key('2') }); // region not cached yet: needs PD
    expect((await backend.get(key('x')))?.toString()).toBe('2');
    expect(double.pdEndpoints.indexOf(stoppedAddress)).toBe(0);
    const regionLookups = pdCalls(double.requestLog, 'GetRegion');
    // The stopped member cannot answer any more; the lookup is served by the new leader.
    expect(regionLookups.map((r) => r.target)).toEqual(['pd:1']);
    expect(pdCalls(double.requestLog, 'GetMembers').length).toBeGreaterThanOrEqual(1);
  });
});

describe('TikvBackend transports', () => {
  it('falls back to unary calls when a store does not serve BatchCommands', async () => {
    const fixture = await startDoubleWithBackend({ batchCommands: false });
    try {
      const { backend, double } = fixture;
      await backend.putMany(['a', 'h', 'x'].map((k) => ({ key: key(k), value: key(k) })));
      await backend.put({ key: key('b'), value: key('b') });
      expect((await backend.get(key('b')))?.toString()).toBe('b');
      const rows = await backend.scan({ start: key('a'), end: key('z'), limit: 10 });
      expect(rows.map((row) => row.key.toString())).toEqual(['a', 'b', 'h', 'x']);
      expect(storeCalls(double.requestLog, 'RawGet').map((r) => r.outcome)).toEqual(['ok']);
    } finally {
      await fixture.stop();
    }
  });

  it.each([true, false])(
    'times out a hung request and retries it on a fresh connection (BatchCommands: %s)',
    async (useBatchCommands) => {
      const timeoutMs = 400;
      const fixture = await startDoubleWithBackend(
        {},
        { requestTimeoutMs: timeoutMs, retryBudgetMs: 5_000, useBatchCommands },
      );
      try {
        const { backend, double } = fixture;
        const k = key('h-hung');
        await backend.put({ key: k, value: key('v') });
        double.makeStoreUnresponsive(double.regionLeaderStoreOf(k)!, 1);
        double.clearRequestLog();
        const started = Date.now();
        expect((await backend.get(k))?.toString()).toBe('v');
        expect(Date.now() - started).toBeGreaterThanOrEqual(timeoutMs - 10);
        const outcomes = storeCalls(double.requestLog, 'RawGet').map((r) => r.outcome);
        expect(outcomes[0]).toBe('unanswered');
        expect(outcomes[outcomes.length - 1]).toBe('ok');
      } finally {
        await fixture.stop();
      }
    },
  );
});

describe('TikvBackend retry budget', () => {
  it('stops retrying a permanently busy store with an error naming the budget and the cause', async () => {
    const fixture = await startDoubleWithBackend({}, { retryBudgetMs: 250, backoff: FAST_BACKOFF });
    try {
      const { backend, double } = fixture;
      const k = key('busy-forever');
      await backend.put({ key: k, value: key('v') });
      double.makeStoreBusy(double.regionLeaderStoreOf(k)!, Number.MAX_SAFE_INTEGER);
      const started = Date.now();
      const failure = backend.get(k);
      await expect(failure).rejects.toThrow(TikvRetryBudgetExhaustedError);
      await expect(failure).rejects.toThrow(
        /TiKV get gave up: retry budget of 250 ms exhausted after \d+ attempt\(s\); last error: ServerIsBusy/,
      );
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(200);
      expect(elapsed).toBeLessThan(2_000);
    } finally {
      await fixture.stop();
    }
  });
});
