import { cpuMillisecondsOf, serverCpuPerUnit } from './scheduler-load';

/** Keeps this thread busy until the process has used `milliseconds` more CPU. */
function spin(milliseconds: number): void {
  const before = process.cpuUsage();
  let sink = 0;
  for (;;) {
    for (let index = 0; index < 100_000; index += 1) sink += Math.sqrt(index);
    const { user, system } = process.cpuUsage(before);
    if (user + system >= milliseconds * 1000) break;
  }
  expect(sink).toBeGreaterThan(0);
}

describe('the CPU figures bench:frontier reads from /proc', () => {
  it('reads a process and its main thread apart, the thread at most the process', () => {
    const processBefore = cpuMillisecondsOf(process.pid);
    const mainBefore = cpuMillisecondsOf(process.pid, process.pid);
    spin(300);
    const processUsed = cpuMillisecondsOf(process.pid) - processBefore;
    const mainUsed = cpuMillisecondsOf(process.pid, process.pid) - mainBefore;
    // The spin ran on the main thread: most of the process's CPU is its (clock ticks: 10 ms).
    expect(mainUsed).toBeGreaterThanOrEqual(200);
    expect(mainUsed).toBeLessThanOrEqual(processUsed + 10);
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
