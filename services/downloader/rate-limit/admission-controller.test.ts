import {
  AdmissionController,
  type AdmissionDecision,
  type AdmissionRequest,
  type AdmissionSettings,
  type DomainSlot,
} from './admission-controller';
import { newDomainRateState, rateLimitStateOf } from './domain-rate-state';
import type { EntryName } from './rate-limit-vocabulary';

// The controller's timing is what is under test, on an injected clock: jest's fake timers drive
// both the `now` the controller is given and the timer that wakes its waiters, so every duration
// below is exact and the suite takes no wall time.
beforeEach(() => jest.useFakeTimers({ now: new Date('2026-08-15T07:00:00Z') }));
afterEach(() => jest.useRealTimers());

const SETTINGS: AdmissionSettings = {
  maxConcurrentCount: 8,
  domainInFlightCap: 2,
  arrivalBoundMs: 200,
  backoffBaseMs: 50,
  backoffCapMs: 400,
  pauseAfterErrorCount: 3,
  pauseMs: 500,
  brakeWaitMs: 150,
};

function request(
  domain: string,
  entryName: EntryName,
  overrides: Partial<AdmissionRequest> = {},
): AdmissionRequest {
  return {
    domain,
    minIntervalMs: 100,
    intervalSource: entryName === 'lease_loop' ? 'lease_message' : 'caller_value',
    entryName,
    ...overrides,
  };
}

function granted(decision: AdmissionDecision): DomainSlot {
  if (!decision.isGranted) throw new Error(`expected a grant, got ${JSON.stringify(decision)}`);
  return decision.slot;
}

const waitFor = (untilMs: number) => ({ waitUntilMs: Date.now() + untilMs });

/** A controller on the test's clock. */
const controllerOf = (settings: AdmissionSettings) =>
  new AdmissionController(settings, {}, () => Date.now());

/** Lets the test's clock run, timer by timer, until `promise` settles (at most `limitMs`). */
async function settled<T>(promise: Promise<T>, limitMs = 60_000): Promise<T> {
  let isDone = false;
  void promise.then(
    () => (isDone = true),
    () => (isDone = true),
  );
  const startedAt = Date.now();
  await jest.advanceTimersByTimeAsync(0);
  while (!isDone) {
    if (jest.getTimerCount() === 0) throw new Error('nothing left to wait for, and not settled');
    if (Date.now() - startedAt > limitMs) throw new Error(`not settled within ${limitMs} ms`);
    await jest.advanceTimersToNextTimerAsync();
  }
  return promise;
}

describe('one domain', () => {
  it('holds the domain while a granted request has not left, then until it surely arrived plus the interval', async () => {
    const controller = controllerOf(SETTINGS);
    const first = granted(await controller.admit(request('a.test', 'render_endpoint')));
    // Granted but not sent yet (waiting for a page, say): its arrival is unknown, so nobody else
    // to this domain may start — however long it takes to leave.
    const whileUnsent = await controller.admit(request('a.test', 'render_endpoint'));
    expect(whileUnsent).toMatchObject({
      isGranted: false,
      holdReason: 'interval',
      retryAfterMs: undefined,
    });
    first.dispatched();
    // Sent, not answered: its arrival is bounded by the arrival bound (200 ms), then the interval.
    const held = await controller.admit(request('a.test', 'render_endpoint'));
    expect(held).toMatchObject({ isGranted: false, holdReason: 'interval' });
    expect(held.isGranted === false && held.retryAfterMs).toBeGreaterThan(290);
    expect(held.isGranted === false && held.retryAfterMs).toBeLessThanOrEqual(300);
    const other = await controller.admit(request('b.test', 'probe_endpoint'));
    expect(other.isGranted).toBe(true);
  });

  it('holds a request that brings min_interval_ms 0 by the in-flight cap only', async () => {
    const controller = controllerOf(SETTINGS);
    const unspaced = { minIntervalMs: 0 };
    granted(await controller.admit(request('a.test', 'render_endpoint', unspaced)));
    // The first has not left (waiting for a page): no spacing to keep, so the second may start.
    granted(await controller.admit(request('a.test', 'render_endpoint', unspaced)));
    expect(await controller.admit(request('a.test', 'render_endpoint', unspaced))).toMatchObject({
      isGranted: false,
      holdReason: 'domain_in_flight',
    });
  });

  it('never lets two granted requests leave together after a long wait before the first left', async () => {
    const controller = controllerOf({ ...SETTINGS, domainInFlightCap: 2 });
    const first = granted(await controller.admit(request('a.test', 'lease_loop')));
    // Much longer than arrival bound + interval: the old bound would have let a second one in.
    await jest.advanceTimersByTimeAsync(400);
    const second = controller.admit(request('a.test', 'lease_loop', waitFor(5000)));
    await jest.advanceTimersByTimeAsync(50);
    const firstLeftAt = Date.now();
    first.dispatched();
    first.answered();
    granted(await settled(second));
    expect(Date.now() - firstLeftAt).toBeGreaterThanOrEqual(100);
  });

  it('lets a waiting entry start exactly when interval and margin have passed', async () => {
    const controller = controllerOf(SETTINGS);
    const startedAt: number[] = [];
    for (let index = 0; index < 4; index += 1) {
      const slot = granted(
        await settled(controller.admit(request('a.test', 'lease_loop', waitFor(5000)))),
      );
      startedAt.push(Date.now());
      slot.dispatched();
      slot.release({ kind: 'origin_answered' });
    }
    const gaps = startedAt.slice(1).map((at, index) => at - startedAt[index]);
    // Answered at once, so the arrival is known: exactly the 100 ms interval apart.
    expect(gaps).toEqual([100, 100, 100]);
    expect(controller.counter.totals(Date.now())).toEqual({
      requestCount: 4,
      overLimitCounts: { lease_loop: 3, render_endpoint: 0, probe_endpoint: 0 },
    });
  });

  it('dates the interval from the dispatch, which may come well after the grant', async () => {
    const controller = controllerOf(SETTINGS);
    const slot = granted(await controller.admit(request('a.test', 'lease_loop')));
    await jest.advanceTimersByTimeAsync(80);
    const dispatchedAt = Date.now();
    slot.dispatched();
    slot.release({ kind: 'origin_answered' });
    granted(await settled(controller.admit(request('a.test', 'lease_loop', waitFor(5000)))));
    expect(Date.now() - dispatchedAt).toBeGreaterThanOrEqual(100);
  });

  it('counts an unanswered request as arriving up to the bound after dispatch, until its answer proves earlier', async () => {
    const controller = controllerOf(SETTINGS);
    const slot = granted(await controller.admit(request('a.test', 'lease_loop')));
    slot.dispatched();
    const dispatchedAt = Date.now();
    const held = await controller.admit(request('a.test', 'render_endpoint'));
    expect(held.isGranted === false && held.retryAfterMs).toBeGreaterThan(290);
    const next = controller.admit(request('a.test', 'lease_loop', waitFor(5000)));
    await jest.advanceTimersByTimeAsync(30);
    slot.answered();
    granted(await settled(next));
    const waitedMs = Date.now() - dispatchedAt;
    expect(waitedMs).toBeGreaterThanOrEqual(100);
    expect(waitedMs).toBeLessThan(250);
  });

  it('spaces each request by the interval it brings and records it, with its source, once sent', async () => {
    const controller = controllerOf(SETTINGS);
    const first = granted(
      await controller.admit(request('a.test', 'lease_loop', { minIntervalMs: 400 })),
    );
    first.dispatched();
    first.release({ kind: 'origin_answered' });
    expect(controller.domainState('a.test')).toMatchObject({
      minIntervalMs: 400,
      intervalSource: 'lease_message',
    });
    await jest.advanceTimersByTimeAsync(60);
    const shorter = request('a.test', 'render_endpoint', {
      minIntervalMs: 0,
      intervalSource: 'global_default',
    });
    granted(await controller.admit(shorter)).dispatched();
    expect(controller.domainState('a.test')).toMatchObject({
      minIntervalMs: 0,
      intervalSource: 'global_default',
    });
  });

  it('gives a reservation back when the request never left', async () => {
    const controller = controllerOf(SETTINGS);
    const sent = granted(await controller.admit(request('a.test', 'lease_loop')));
    sent.dispatched();
    sent.release({ kind: 'origin_answered' });
    const sentAtMs = controller.domainState('a.test')!.lastRequestAtMs;
    await jest.advanceTimersByTimeAsync(120);
    const refused = granted(
      await controller.admit(request('a.test', 'render_endpoint', { minIntervalMs: 50 })),
    );
    refused.release({ kind: 'no_verdict' });
    expect(controller.domainState('a.test')).toMatchObject({
      lastRequestAtMs: sentAtMs,
      minIntervalMs: 100,
      inFlightCount: 0,
    });
    expect(controller.counter.totals(Date.now()).requestCount).toBe(1);
  });

  it('serves waiters in arrival order and holds back an entry that arrives behind them', async () => {
    const controller = controllerOf(SETTINGS);
    const sent = (slot: DomainSlot) => {
      slot.dispatched();
      slot.release({ kind: 'origin_answered' });
    };
    sent(granted(await controller.admit(request('a.test', 'render_endpoint'))));
    const order: string[] = [];
    const waitInLine = (name: string) =>
      controller.admit(request('a.test', 'lease_loop', waitFor(5000))).then((decision) => {
        order.push(name);
        sent(granted(decision));
      });
    const both = Promise.all([waitInLine('first'), waitInLine('second')]);
    await jest.advanceTimersByTimeAsync(60);
    // The first waiter has the domain's turn: a newcomer is over the limit.
    expect(await controller.admit(request('a.test', 'probe_endpoint'))).toMatchObject({
      isGranted: false,
      holdReason: 'interval',
    });
    const startedAt = Date.now();
    await settled(both);
    expect(order).toEqual(['first', 'second']);
    expect(Date.now() - startedAt).toBeLessThan(1000);
  });

  it('caps the domain in flight; a release lets the next waiter in', async () => {
    const controller = controllerOf({
      ...SETTINGS,
      domainInFlightCap: 1,
      arrivalBoundMs: 0,
    });
    const slot = granted(
      await controller.admit(request('a.test', 'lease_loop', { minIntervalMs: 0 })),
    );
    slot.dispatched();
    const next = controller.admit(
      request('a.test', 'lease_loop', { minIntervalMs: 0, ...waitFor(5000) }),
    );
    expect(
      await controller.admit(request('a.test', 'render_endpoint', { minIntervalMs: 0 })),
    ).toMatchObject({ isGranted: false, holdReason: 'domain_in_flight', retryAfterMs: undefined });
    slot.release({ kind: 'origin_answered' });
    expect((await settled(next)).isGranted).toBe(true);
  });

  it('answers a waiting entry at once when the domain is held past its deadline', async () => {
    const controller = controllerOf(SETTINGS);
    granted(
      await controller.admit(request('a.test', 'lease_loop', { minIntervalMs: 5000 })),
    ).dispatched();
    const startedAt = Date.now();
    const decision = await controller.admit(
      request('a.test', 'lease_loop', { minIntervalMs: 5000, ...waitFor(1000) }),
    );
    expect(decision).toMatchObject({ isGranted: false, holdReason: 'interval' });
    expect(Date.now() - startedAt).toBeLessThan(50);
  });
});

describe('restart', () => {
  it('makes a domain restored from storage wait one interval from the restart, whatever its row says', async () => {
    const controller = controllerOf(SETTINGS);
    const stored = newDomainRateState('a.test', 100, 'lease_message');
    // The row was written behind a moment before a crash: its last arrival may be stale.
    stored.settledSpacingFromMs = Date.now() - 60_000;
    controller.restore(stored);
    const held = await controller.admit(request('a.test', 'render_endpoint'));
    expect(held).toMatchObject({ isGranted: false, holdReason: 'interval' });
    expect(held.isGranted === false && held.retryAfterMs).toBeGreaterThan(50);
    const unknown = await controller.admit(request('b.test', 'render_endpoint'));
    expect(unknown.isGranted).toBe(true);
  });
});

describe('politeness backoff', () => {
  async function failOnce(controller: AdmissionController, domain: string): Promise<void> {
    const slot = granted(
      await settled(
        controller.admit(request(domain, 'lease_loop', { minIntervalMs: 0, ...waitFor(10_000) })),
      ),
    );
    slot.dispatched();
    slot.release({ kind: 'origin_error', failReason: 'http_server_error' });
  }

  it('holds the domain base · 2^k after the k-th error, pauses it at the threshold, resets on an answer', async () => {
    const controller = controllerOf(SETTINGS);
    const holds: number[] = [];
    for (let errorCount = 1; errorCount <= 3; errorCount += 1) {
      await failOnce(controller, 'a.test');
      const state = controller.domainState('a.test')!;
      holds.push((state.politeness.backoffUntilMs as number) - Date.now());
      const held = await controller.admit(
        request('a.test', 'render_endpoint', { minIntervalMs: 0 }),
      );
      expect(held).toMatchObject({
        isGranted: false,
        holdReason: errorCount < 3 ? 'backing_off' : 'paused',
        lastFailReason: 'http_server_error',
      });
      expect(rateLimitStateOf(state, Date.now(), controller.limits)).toBe(
        errorCount < 3 ? 'backing_off' : 'paused',
      );
    }
    // 50 · 2 = 100, 50 · 4 = 200, then the pause (500 ms, never shorter than the backoff).
    expect(holds).toEqual([100, 200, 500]);

    // Entry A cannot wait out a pause that outlasts its lease: it is told why at once.
    expect(
      await controller.admit(
        request('a.test', 'lease_loop', { minIntervalMs: 0, ...waitFor(300) }),
      ),
    ).toMatchObject({
      isGranted: false,
      holdReason: 'paused',
      lastFailReason: 'http_server_error',
    });

    const slot = granted(
      await settled(
        controller.admit(request('a.test', 'lease_loop', { minIntervalMs: 0, ...waitFor(2000) })),
      ),
    );
    slot.dispatched();
    slot.release({ kind: 'origin_answered' });
    expect(controller.domainState('a.test')!.politeness).toEqual({
      consecutiveErrorCount: 0,
      backoffUntilMs: null,
      lastFailReason: null,
    });
  });

  it('ignores outcomes that say nothing about the origin, and releases that never dispatched', async () => {
    const controller = controllerOf(SETTINGS);
    const first = granted(
      await controller.admit(request('a.test', 'lease_loop', { minIntervalMs: 0 })),
    );
    first.dispatched();
    first.release({ kind: 'no_verdict' });
    const second = granted(
      await settled(
        controller.admit(request('a.test', 'lease_loop', { minIntervalMs: 0, ...waitFor(1000) })),
      ),
    );
    second.release({ kind: 'origin_error', failReason: 'navigation_timeout' });
    expect(controller.domainState('a.test')!.politeness.consecutiveErrorCount).toBe(0);
  });
});

describe('the global brake', () => {
  it('queues an immediate entry briefly for a permit, then holds it back', async () => {
    const controller = controllerOf({ ...SETTINGS, maxConcurrentCount: 1 });
    const slot = granted(await controller.admit(request('a.test', 'lease_loop')));
    const startedAt = Date.now();
    expect(await settled(controller.admit(request('b.test', 'render_endpoint')))).toMatchObject({
      isGranted: false,
      holdReason: 'concurrency',
    });
    // brakeWaitMs
    expect(Date.now() - startedAt).toBe(150);
    const queued = controller.admit(request('c.test', 'probe_endpoint'));
    slot.release({ kind: 'origin_answered' });
    expect((await settled(queued)).isGranted).toBe(true);
    expect(controller.counter.totals(Date.now()).overLimitCounts).toEqual({
      lease_loop: 0,
      render_endpoint: 1,
      probe_endpoint: 0,
    });
  });

  it('applies a lowered cap at once without touching requests in flight', async () => {
    const controller = controllerOf({ ...SETTINGS, maxConcurrentCount: 3 });
    const slots = await Promise.all(
      ['a.test', 'b.test', 'c.test'].map(async (domain) =>
        granted(await controller.admit(request(domain, 'lease_loop'))),
      ),
    );
    controller.setMaxConcurrentCount(1);
    expect(controller.inFlightCount).toBe(3);
    const waiting = controller.admit(request('d.test', 'lease_loop', waitFor(5000)));
    let isGranted = false;
    void waiting.then(() => (isGranted = true));
    slots[0].release({ kind: 'origin_answered' });
    slots[1].release({ kind: 'origin_answered' });
    await jest.advanceTimersByTimeAsync(20);
    expect(isGranted).toBe(false);
    slots[2].release({ kind: 'origin_answered' });
    expect((await settled(waiting)).isGranted).toBe(true);
    expect(controller.inFlightCount).toBe(1);
  });
});

describe('shutdown', () => {
  it('answers waiters and new requests with stopping, and an aborted wait at once', async () => {
    const controller = controllerOf(SETTINGS);
    granted(await controller.admit(request('a.test', 'lease_loop', { minIntervalMs: 60_000 })));
    const abort = new AbortController();
    const aborted = controller.admit(
      request('a.test', 'lease_loop', {
        minIntervalMs: 60_000,
        signal: abort.signal,
        ...waitFor(120_000),
      }),
    );
    abort.abort();
    expect(await aborted).toMatchObject({ isGranted: false, holdReason: 'stopping' });
    const waiting = controller.admit(
      request('a.test', 'lease_loop', { minIntervalMs: 1000, ...waitFor(60_000) }),
    );
    controller.close();
    expect(await waiting).toMatchObject({ isGranted: false, holdReason: 'stopping' });
    expect(await controller.admit(request('z.test', 'render_endpoint'))).toMatchObject({
      holdReason: 'stopping',
    });
  });
});
