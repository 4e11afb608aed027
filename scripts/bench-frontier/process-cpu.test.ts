import { Worker } from 'node:worker_threads';
import { cpuMillisecondsOf, serverCpuPerUnit } from './scheduler-load';

/**
 * Keeps the main thread busy until /proc says it used `milliseconds` more CPU. Measured on the
 * thread itself: spinning until the whole process had used 300 ms once left the main thread with
 * 110 ms in CI, the rest taken by the test runner's other threads meanwhile.
 */
function spinMainThread(milliseconds: number): void {
  const before = cpuMillisecondsOf(process.pid, process.pid);
  let sink = 0;
  while (cpuMillisecondsOf(process.pid, process.pid) - before < milliseconds) {
    for (let index = 0; index < 100_000; index += 1) sink += Math.sqrt(index);
  }
  expect(sink).toBeGreaterThan(0);
}

/**
 * Source of a worker that spins until the process has used `milliseconds` more CPU, then raises
 * the flag in `signal` (the main thread is asleep on it, its event loop blocked).
 */
const SPINNING_WORKER = `
  const { workerData } = require('node:worker_threads');
  const before = process.cpuUsage();
  let sink = 0;
  for (;;) {
    for (let index = 0; index < 100000; index += 1) sink += Math.sqrt(index);
    const { user, system } = process.cpuUsage(before);
    if (user + system >= workerData.milliseconds * 1000) break;
  }
  Atomics.store(workerData.signal, 0, sink > 0 ? 1 : 2);
  Atomics.notify(workerData.signal, 0);
`;

/** Runs SPINNING_WORKER with the main thread asleep (Atomics.wait), so only other threads work. */
function spinAnotherThreadWhileMainSleeps(milliseconds: number): void {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(SPINNING_WORKER, { eval: true, workerData: { milliseconds, signal } });
  try {
    expect(Atomics.wait(signal, 0, 0, 30_000)).not.toBe('timed-out');
    expect(Atomics.load(signal, 0)).toBe(1);
  } finally {
    void worker.terminate();
  }
}

/** CPU milliseconds the process and its main thread used while `work` ran, as /proc counts them. */
function cpuUsedDuring(work: () => void): { processUsed: number; mainUsed: number } {
  const processBefore = cpuMillisecondsOf(process.pid);
  const mainBefore = cpuMillisecondsOf(process.pid, process.pid);
  work();
  return {
    processUsed: cpuMillisecondsOf(process.pid) - processBefore,
    mainUsed: cpuMillisecondsOf(process.pid, process.pid) - mainBefore,
  };
}

describe('the CPU figures bench:frontier reads from /proc', () => {
  it('reads the main thread: CPU it spent itself, at most what the process spent', () => {
    const { processUsed, mainUsed } = cpuUsedDuring(() => spinMainThread(300));
    expect(mainUsed).toBeGreaterThanOrEqual(300);
    // Clock ticks are 10 ms, read at slightly different moments.
    expect(mainUsed).toBeLessThanOrEqual(processUsed + 10);
  });

  it('reads a process and its main thread apart: CPU of another thread counts for the process only', () => {
    const { processUsed, mainUsed } = cpuUsedDuring(() => spinAnotherThreadWhileMainSleeps(300));
    expect(processUsed).toBeGreaterThanOrEqual(290);
    // Starting the worker costs the main thread a little; the spin itself, nothing.
    expect(mainUsed).toBeLessThan(processUsed - 200);
  });

  it('refuses a thread the process does not have', () => {
    expect(() => cpuMillisecondsOf(process.pid, 2 ** 30)).toThrow(/ENOENT/);
  });

  it('shares milliseconds out in microseconds, and nothing over no URLs', () => {
    const before = { processMs: 10, mainThreadMs: 5 };
    const after = { processMs: 40, mainThreadMs: 25 };
    expect(serverCpuPerUnit(before, after, 200)).toEqual({
      cpuMicrosecondsPerUrl: 150,
      mainThreadCpuMicrosecondsPerUrl: 100,
    });
    expect(serverCpuPerUnit(before, after, 0)).toEqual({
      cpuMicrosecondsPerUrl: undefined,
      mainThreadCpuMicrosecondsPerUrl: undefined,
    });
  });
});
