import { NetworkActivity, waitForNetworkQuiet } from './network-quiet-wait';

class FakeActivity implements NetworkActivity {
  inFlightCount = 0;
  private readonly listeners = new Set<() => void>();

  onActivity(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  change(inFlightCount: number): void {
    this.inFlightCount = inFlightCount;
    for (const listener of this.listeners) listener();
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}

describe('waitForNetworkQuiet', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('resolves after a quiet window, restarted by every new request', async () => {
    const activity = new FakeActivity();
    let result: string | undefined;
    void waitForNetworkQuiet(activity, 400, 2000).then((value) => (result = value));
    await jest.advanceTimersByTimeAsync(300);
    activity.change(1); // a late XHR starts
    await jest.advanceTimersByTimeAsync(500);
    expect(result).toBeUndefined();
    activity.change(0);
    await jest.advanceTimersByTimeAsync(399);
    expect(result).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(result).toBe('quiet');
    expect(activity.listenerCount).toBe(0);
  });

  test('gives up at the cap when the page never goes quiet', async () => {
    const activity = new FakeActivity();
    activity.change(3);
    let result: string | undefined;
    void waitForNetworkQuiet(activity, 400, 1000).then((value) => (result = value));
    await jest.advanceTimersByTimeAsync(999);
    expect(result).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1);
    expect(result).toBe('capped');
    expect(activity.listenerCount).toBe(0);
  });
});
