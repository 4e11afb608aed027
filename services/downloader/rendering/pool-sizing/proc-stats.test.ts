import { ProcessTreeCpuCounter, type ProcessEntry } from './proc-stats';

/**
 * A process with `own` ticks of its own. `reaped` — ticks of children it waited for, which /proc
 * adds to its cutime — is written in the scenarios below but never read: the counter ignores it.
 */
function entry(pid: number, parentPid: number, own: number, _reaped = 0): ProcessEntry {
  return {
    pid,
    parentPid,
    state: 'S',
    startTime: String(1000 + pid),
    rssBytes: 0,
    ownCpuTicks: own,
  };
}

describe('ProcessTreeCpuCounter', () => {
  test("keeps an exited process's CPU when its parent did not account for it (a zygote's renderer)", () => {
    const counter = new ProcessTreeCpuCounter();
    expect(counter.update([entry(1, 0, 100), entry(2, 1, 50), entry(3, 2, 200)])).toBe(3.5);
    // The renderer (3) is gone; the zygote (2) reaped it without accounting: its counters are flat.
    expect(counter.update([entry(1, 0, 110), entry(2, 1, 55)])).toBeCloseTo(3.65);
  });

  test('does not count twice a process its parent waited for (its time moved to the parent)', () => {
    const counter = new ProcessTreeCpuCounter();
    expect(counter.update([entry(1, 0, 100), entry(2, 1, 300)])).toBe(4);
    // The browser (2) exited and Node (1) reaped it: 310 ticks moved into Node's children counter.
    // Its last reading (300) counts once; the 10 ticks after it are the bounded loss.
    expect(counter.update([entry(1, 0, 105, 310)])).toBeCloseTo(4.05);
  });

  test('does not count twice a renderer re-parented to a reaper in the tree (PID namespace)', () => {
    const counter = new ProcessTreeCpuCounter();
    // Node (1) → unshare (2) → Chromium (3, init of the namespace) → zygote helper (4) → renderer (5).
    const before = [entry(1, 0, 100), entry(2, 1, 1), entry(3, 2, 50), entry(4, 3, 5)];
    expect(counter.update([...before, entry(5, 4, 200)])).toBeCloseTo(3.56);
    // The helper exited, the renderer was re-parented to Chromium, then exited and was reaped by it
    // with accounting: Chromium's children counter grew by the renderer's 220 ticks.
    expect(counter.update([entry(1, 0, 100), entry(2, 1, 1), entry(3, 2, 60, 225)])).toBeCloseTo(
      3.66,
    );
  });

  test('does not count twice a retired browser generation reaped through unshare by Node', () => {
    const counter = new ProcessTreeCpuCounter();
    expect(
      counter.update([entry(1, 0, 100), entry(2, 1, 1), entry(3, 2, 400), entry(4, 3, 300)]),
    ).toBeCloseTo(8.01);
    // The whole generation is gone; Node's children counter now carries all of it (701 ticks).
    expect(counter.update([entry(1, 0, 110, 701), entry(6, 1, 1)])).toBeCloseTo(8.12);
  });
});
