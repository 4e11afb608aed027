import type { NetworkActivity } from './network-quiet-wait';
import {
  PageSettleResult,
  PageSettleSettings,
  SettleActivity,
  waitForPageToSettle,
} from './page-settle-wait';

/** The recorder as the wait sees it: requests awaiting their head and awaiting their body. */
class FakeNetwork implements SettleActivity {
  private headCount = 0;
  private loadCount = 0;
  private readonly listeners = new Set<() => void>();
  lastActivityAtMs = Date.now();
  activityCount = 0;
  readonly awaitingHead: NetworkActivity = this.view(() => this.headCount);
  readonly awaitingLoad: NetworkActivity = this.view(() => this.loadCount);

  start(): void {
    this.headCount += 1;
    this.loadCount += 1;
    this.changed();
  }

  answer(): void {
    this.headCount -= 1;
    this.changed();
  }

  finish(): void {
    this.loadCount -= 1;
    this.changed();
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  private changed(): void {
    this.lastActivityAtMs = Date.now();
    this.activityCount += 1;
    for (const listener of this.listeners) listener();
  }

  private view(count: () => number): NetworkActivity {
    return {
      get inFlightCount() {
        return count();
      },
      onActivity: (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      },
    };
  }
}

const SETTINGS: PageSettleSettings = { settleMs: 100, quietWindowMs: 400, capMs: 2000 };

function track(promise: Promise<PageSettleResult>): {
  result: () => PageSettleResult | undefined;
} {
  let result: PageSettleResult | undefined;
  void promise.then((value) => (result = value));
  return { result: () => result };
}

describe('waitForPageToSettle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('a quiet page with nothing scheduled is complete after the settle time, not the quiet window', async () => {
    const network = new FakeNetwork();
    const reads: number[] = [];
    const wait = track(
      waitForPageToSettle(
        network,
        async () => {
          reads.push(Date.now());
          return null;
        },
        SETTINGS,
      ),
    );
    await jest.advanceTimersByTimeAsync(99);
    expect(wait.result()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(wait.result()).toBe('settled');
    expect(reads).toHaveLength(1);
    expect(network.listenerCount).toBe(0);
  });

  test('waits for a timer the page scheduled, then for the request it started', async () => {
    const network = new FakeNetwork();
    // The page's load handler set a 200 ms timer; it fires a late XHR (like the bench pages).
    let timerDueAtMs: number | undefined = Date.now() + 200;
    const wait = track(
      waitForPageToSettle(
        network,
        async () => (timerDueAtMs === undefined ? null : Math.max(0, timerDueAtMs - Date.now())),
        SETTINGS,
      ),
    );
    await jest.advanceTimersByTimeAsync(150);
    expect(wait.result()).toBeUndefined(); // settle passed at 100, but the timer is due at 200
    await jest.advanceTimersByTimeAsync(50);
    timerDueAtMs = undefined;
    network.start(); // the late XHR
    await jest.advanceTimersByTimeAsync(30);
    network.answer();
    await jest.advanceTimersByTimeAsync(20);
    network.finish();
    await jest.advanceTimersByTimeAsync(99);
    expect(wait.result()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(wait.result()).toBe('settled');
  });

  test('ignores a timer due after the quiet window would have ended', async () => {
    const network = new FakeNetwork();
    const wait = track(waitForPageToSettle(network, async () => 1500, SETTINGS));
    await jest.advanceTimersByTimeAsync(100);
    expect(wait.result()).toBe('settled');
  });

  test('looks again when a request started while the page was asked', async () => {
    const network = new FakeNetwork();
    let readCount = 0;
    const wait = track(
      waitForPageToSettle(
        network,
        async () => {
          readCount += 1;
          if (readCount === 1) network.start(); // the page reacted to a response meanwhile
          return null;
        },
        SETTINGS,
      ),
    );
    await jest.advanceTimersByTimeAsync(100);
    expect(wait.result()).toBeUndefined();
    network.answer();
    network.finish();
    await jest.advanceTimersByTimeAsync(100);
    expect(wait.result()).toBe('settled');
    expect(readCount).toBe(2);
  });

  test('falls back to the network-quiet window when the page cannot be asked', async () => {
    const network = new FakeNetwork();
    const wait = track(waitForPageToSettle(network, async () => undefined, SETTINGS));
    await jest.advanceTimersByTimeAsync(399);
    expect(wait.result()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(wait.result()).toBe('quiet');
  });

  test('a body the page never reads cannot hold it past the quiet window', async () => {
    const network = new FakeNetwork();
    network.start();
    network.answer(); // head in, body never finishes
    const wait = track(waitForPageToSettle(network, async () => null, SETTINGS));
    await jest.advanceTimersByTimeAsync(400);
    expect(wait.result()).toBe('quiet');
  });

  test('a page that keeps scheduling short timers ends with the quiet window', async () => {
    const network = new FakeNetwork();
    const wait = track(waitForPageToSettle(network, async () => 50, SETTINGS));
    await jest.advanceTimersByTimeAsync(400);
    expect(wait.result()).toBe('quiet');
  });

  test('a long-polling request that never answers holds the page until the cap only', async () => {
    const network = new FakeNetwork();
    network.start();
    const wait = track(waitForPageToSettle(network, async () => null, SETTINGS));
    await jest.advanceTimersByTimeAsync(1999);
    expect(wait.result()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(wait.result()).toBe('capped');
    expect(network.listenerCount).toBe(0);
  });
});
