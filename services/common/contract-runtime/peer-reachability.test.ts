import {
  deadlineBoundedPauseMs,
  MINIMUM_DEADLINE_PAUSE_MS,
  PeerReachability,
} from './peer-reachability';

describe('deadlineBoundedPauseMs', () => {
  it('keeps a pause to half the time left before the deadline, never below the minimum', () => {
    expect(deadlineBoundedPauseMs(30_000, 10_000, 0)).toBe(5000);
    expect(deadlineBoundedPauseMs(1000, 10_000, 0)).toBe(1000);
    expect(deadlineBoundedPauseMs(30_000, 10_000, 9900)).toBe(MINIMUM_DEADLINE_PAUSE_MS);
  });

  it('leaves the pause alone without a deadline or once it has passed', () => {
    expect(deadlineBoundedPauseMs(30_000, undefined, 0)).toBe(30_000);
    expect(deadlineBoundedPauseMs(30_000, Number.NaN, 0)).toBe(30_000);
    expect(deadlineBoundedPauseMs(30_000, 10_000, 10_000)).toBe(30_000);
  });
});

describe('PeerReachability', () => {
  it('ends a pause as soon as the peer answered, and only the pauses under way', async () => {
    const reachability = new PeerReachability();
    const startedAt = Date.now();
    const pause = reachability.pause(10_000);
    setTimeout(() => reachability.noteAnswered(), 30);
    await pause;
    expect(Date.now() - startedAt).toBeLessThan(1000);
    const later = Date.now();
    await reachability.pause(60);
    expect(Date.now() - later).toBeGreaterThanOrEqual(55);
  });

  it('rejects a pause when its signal aborts', async () => {
    const controller = new AbortController();
    const pause = new PeerReachability().pause(10_000, controller.signal);
    controller.abort(new Error('shutdown'));
    await expect(pause).rejects.toThrow('shutdown');
  });
});
