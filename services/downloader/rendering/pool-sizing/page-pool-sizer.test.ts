import { spawn } from 'node:child_process';
import type { LoadReader, LoadReading } from './load-reading';
import { procLoadReader } from './load-reading';
import { PagePoolSizer, type PoolSizeChange, type SizedPool } from './page-pool-sizer';

const GIB = 1024 ** 3;

class FakePool implements SizedPool {
  busyCount = 0;
  waitingCount = 0;
  completedCount = 0;
  constructor(public size: number) {}
  resize(size: number): void {
    this.size = size;
  }
}

/**
 * A machine whose CPU use the test sets per window: `cpu` is the machine's busy share and `tree`
 * the pool's own share, both of all cores (2 cores).
 */
class FakeMachine {
  cpu = 0.4;
  tree = 0.4;
  /** Share of the time runnable tasks waited for a CPU. */
  stall = 0;
  availableBytes = 20 * GIB;
  private reading: LoadReading = {
    atMs: Date.now(),
    machineBusySeconds: 0,
    machineTotalSeconds: 0,
    treeCpuSeconds: 0,
    cpuStallMicroseconds: 0,
    memory: { availableBytes: 20 * GIB, totalBytes: 24 * GIB },
    treePssBytes: 1 * GIB,
    treeProcessCount: 6,
  };
  readonly read: LoadReader = ({ withPss }) => {
    const seconds = (Date.now() - this.reading.atMs) / 1000;
    this.reading = {
      ...this.reading,
      atMs: Date.now(),
      machineTotalSeconds: this.reading.machineTotalSeconds + 2 * seconds,
      machineBusySeconds: this.reading.machineBusySeconds + 2 * seconds * this.cpu,
      treeCpuSeconds: this.reading.treeCpuSeconds + 2 * seconds * this.tree,
      cpuStallMicroseconds: (this.reading.cpuStallMicroseconds ?? 0) + seconds * 1e6 * this.stall,
      memory: { availableBytes: this.availableBytes, totalBytes: 24 * GIB },
      treePssBytes: withPss ? 1 * GIB : undefined,
    };
    return this.reading;
  };
}

function startSizer(pool: FakePool, machine: FakeMachine, brake: { value: number }) {
  const changes: PoolSizeChange[] = [];
  const sizer = new PagePoolSizer({
    pool,
    minSize: 1,
    brake: () => brake.value,
    hardMaxSize: 64,
    readLoad: machine.read,
    eventLoopLag: { readPercentile90Ms: () => 5, stop: () => undefined },
    onResize: (change) => changes.push(change),
  });
  sizer.start();
  return { sizer, changes };
}

describe('PagePoolSizer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('grows a full pool while the CPU has room; on a full CPU keeps pages that do not lower pages/s, up to twice the size at which the CPU filled', async () => {
    const pool = new FakePool(2);
    const machine = new FakeMachine();
    const { sizer, changes } = startSizer(pool, machine, { value: 16 });
    pool.busyCount = 2; // every page in use, renders waiting
    pool.waitingCount = 6;
    machine.cpu = machine.tree = 0.3;
    await jest.advanceTimersByTimeAsync(3000);
    expect(pool.size).toBe(3); // ×1.5 at most
    expect(changes.at(-1)).toMatchObject({ fromSize: 2, toSize: 3, reason: 'processor_headroom' });
    pool.busyCount = 3;
    machine.cpu = machine.tree = 0.45;
    await jest.advanceTimersByTimeAsync(3000);
    expect(pool.size).toBe(5);
    pool.busyCount = 5;
    pool.waitingCount = 0;
    machine.cpu = machine.tree = 0.96; // the CPU is nearly full: no growth for the CPU's sake
    pool.completedCount += 30; // 10 pages/s
    await jest.advanceTimersByTimeAsync(3000);
    expect(pool.size).toBe(5);
    expect(sizer.status()).toMatchObject({
      size: 5,
      maxSize: 16,
      isSelfSizing: true,
      lastChange: { reason: 'processor_headroom', toSize: 5 },
      lastWindow: { machineCpuBusyRatio: expect.closeTo(0.96, 2), demandRatio: 1 },
    });
    // Two windows measured at 5 pages: one page more, to see what it does to pages/s …
    pool.completedCount += 30;
    await jest.advanceTimersByTimeAsync(3000);
    expect(changes.at(-1)).toMatchObject({ fromSize: 5, toSize: 6, reason: 'throughput_probe' });
    // … nothing measurable (the same 10 pages/s), and 6 is within twice the 5 pages at which the
    // CPU filled: kept, and the next step is two pages; 8 pages cost nothing either: kept …
    const windowsAt = async (size: number, count: number) => {
      for (let index = 0; index < count; index += 1) {
        pool.busyCount = size;
        pool.completedCount += 30;
        await jest.advanceTimersByTimeAsync(3000);
      }
    };
    // (Two windows judge the step; the third, counted for the new size, starts the next.)
    await windowsAt(6, 3);
    expect(changes.at(-1)).toMatchObject({ fromSize: 6, toSize: 8, reason: 'throughput_probe' });
    await windowsAt(8, 3);
    expect(changes.at(-1)).toMatchObject({ fromSize: 8, toSize: 12, reason: 'throughput_probe' });
    // … but 12 is past 10: flat pages/s there send the pool back to 8.
    await windowsAt(12, 2);
    expect(changes.at(-1)).toMatchObject({ fromSize: 12, toSize: 8, reason: 'throughput_flat' });
    expect(pool.size).toBe(8);
    sizer.stop();
  });

  test('a size the probe kept is not shrunk for a saturated CPU alone, however long it stays saturated', async () => {
    const pool = new FakePool(4);
    const machine = new FakeMachine();
    const { sizer, changes } = startSizer(pool, machine, { value: 16 });
    pool.busyCount = 4;
    pool.waitingCount = 4;
    machine.cpu = 0.96;
    machine.tree = 0.9;
    // Measure 4 pages (10 pages/s), probe 5 (12 pages/s): kept.
    for (const rate of [10, 10]) {
      pool.completedCount += rate * 3;
      await jest.advanceTimersByTimeAsync(3000);
    }
    expect(pool.size).toBe(5);
    pool.busyCount = 5;
    for (const rate of [12, 12]) {
      pool.completedCount += rate * 3;
      await jest.advanceTimersByTimeAsync(3000);
    }
    expect(changes.map((change) => change.reason)).toEqual(['throughput_probe']);
    // Now the CPU is saturated and tasks wait for it: without the proof this would shrink.
    machine.cpu = 1;
    machine.stall = 0.8;
    // (It also tries 7 pages — fewer pages/s there — and goes back to 5, then rests.) The proof
    // does not run out: 30 windows later the saturated CPU still has not taken it below 5.
    for (let window = 0; window < 39; window += 1) {
      pool.completedCount += pool.size > 5 ? 27 : 36;
      await jest.advanceTimersByTimeAsync(3000);
    }
    const reasons = changes.map((change) => change.reason);
    expect(reasons.slice(0, 3)).toEqual([
      'throughput_probe',
      'throughput_probe',
      'throughput_flat',
    ]);
    // (after its rest it tries 7 again, and again goes back)
    expect(reasons).not.toContain('processor_saturated');
    expect(pool.size).toBeGreaterThanOrEqual(5);
    sizer.stop();
  });

  test("never shows the pool's own CPU share above the machine's (readings a moment apart)", async () => {
    const pool = new FakePool(2);
    const machine = new FakeMachine();
    const { sizer } = startSizer(pool, machine, { value: 16 });
    machine.cpu = 0.272;
    machine.tree = 0.277; // the tree read a tick later than the machine
    await jest.advanceTimersByTimeAsync(3000);
    expect(sizer.status().lastWindow).toMatchObject({
      machineCpuBusyRatio: expect.closeTo(0.272, 3),
      treeCpuRatio: expect.closeTo(0.272, 3),
    });
    sizer.stop();
  });

  test('shrinks under memory pressure and at once when the brake is lowered', async () => {
    const pool = new FakePool(8);
    const machine = new FakeMachine();
    const brake = { value: 16 };
    const { sizer, changes } = startSizer(pool, machine, brake);
    machine.availableBytes = 0.5 * GIB;
    pool.busyCount = 8;
    await jest.advanceTimersByTimeAsync(3000);
    expect(pool.size).toBe(6);
    expect(changes.at(-1)?.reason).toBe('memory_pressure');
    // Three renders still hold their pages: the brake leaves them their pages (it never slows a
    // request in flight) and takes the rest as they finish.
    pool.busyCount = 3;
    brake.value = 2;
    sizer.brakeChanged();
    expect(pool.size).toBe(3);
    pool.busyCount = 0;
    await jest.advanceTimersByTimeAsync(3000);
    expect(pool.size).toBe(2);
    expect(sizer.status().lastChange).toMatchObject({ reason: 'brake_lowered', fromSize: 3 });
    sizer.stop();
  });
});

describe('procLoadReader', () => {
  test("counts the CPU of this process's children, exited ones included", async () => {
    const read = procLoadReader();
    const before = read({ withPss: true });
    // A child that burns 0.3 s of CPU however busy the machine is, says so, idles a moment (a
    // reading sees it) and exits. What a process uses after its last reading is not counted
    // (ProcessTreeCpuCounter); its time up to that reading is, after it is gone too.
    const child = spawn(process.execPath, [
      '-e',
      'while (process.cpuUsage().user + process.cpuUsage().system < 300000);' +
        "process.stdout.write('burned'); setTimeout(() => {}, 200);",
    ]);
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const during = read({ withPss: false });
    await new Promise((resolve) => child.once('exit', resolve));
    const after = read({ withPss: false });
    expect(during.treeProcessCount).toBe(before.treeProcessCount + 1);
    // 0.3 s less the clock-tick rounding of /proc (10 ms per process and field).
    expect(after.treeCpuSeconds - before.treeCpuSeconds).toBeGreaterThanOrEqual(0.25);
    expect(before.treePssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(during.treePssBytes).toBeUndefined();
    expect(after.machineBusySeconds).toBeGreaterThan(before.machineBusySeconds);
    expect(after.memory.availableBytes).toBeGreaterThan(0);
    expect(after.memory.totalBytes).toBeGreaterThanOrEqual(after.memory.availableBytes);
  });
});
