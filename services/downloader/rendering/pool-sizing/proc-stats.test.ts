import { ProcessTreeCpuCounter, type ProcessEntry } from './proc-stats';

/** A process with `own` ticks of its own and `reaped` ticks of children it waited for. */
function entry(pid: number, parentPid: number, own: number, reaped = 0): ProcessEntry {
  return {
    pid,
    parentPid,
    state: 'S',
    startTime: String(1000 + pid),
    rssBytes: 0,
    cpuTicks: own + reaped,
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
    expect(counter.update([entry(1, 0, 105, 310)])).toBeCloseTo(4.15);
  });
});
