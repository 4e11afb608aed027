import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runGate } from './gate/run-gate';

/*
 * `npm run bench:gate`: the gate's wall time on the whole repository, excluding process start-up
 * (node, tsx, loading TypeScript). Each run re-reads and re-parses every file, exactly as the CLI
 * does; the first run also pays for JIT warm-up, so it is shown apart from min and median. CPU time
 * is printed too: on a shared machine it shows the gate's own cost when wall time includes waiting.
 */

const RUNS = 7;
const TARGET_MS = 1000;

function main(): void {
  const root = join(__dirname, '..');
  const first = timed(() => runGate({ root }));
  const runs = Array.from({ length: RUNS }, () => timed(() => runGate({ root })));
  const { summary } = first.result;
  const medianWallMs = median(runs.map((run) => run.wallMs));
  const verdict = medianWallMs < TARGET_MS ? 'PASS' : 'FAIL';
  console.log(
    `bench:gate: ${summary.filesScanned} files, ${summary.findingCount} findings; first run ` +
      `${first.wallMs.toFixed(0)} ms; then over ${RUNS} runs wall min ${describe(runs, 'wallMs')}, ` +
      `cpu min ${describe(runs, 'cpuMs')} (target < ${TARGET_MS} ms wall): ${verdict}`,
  );
  process.exitCode = verdict === 'PASS' ? 0 : 1;
}

interface Timing<T> {
  result: T;
  wallMs: number;
  cpuMs: number;
}

function timed<T>(work: () => T): Timing<T> {
  const startedCpu = process.cpuUsage();
  const started = performance.now();
  const result = work();
  const cpu = process.cpuUsage(startedCpu);
  return { result, wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** `123 ms, median 140 ms` for one measure over the runs. */
function describe(runs: Array<Timing<unknown>>, measure: 'wallMs' | 'cpuMs'): string {
  const values = runs.map((run) => run[measure]);
  return `${Math.min(...values).toFixed(0)} ms, median ${median(values).toFixed(0)} ms`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
}

main();
