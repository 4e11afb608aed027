import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/*
 * `npm run bench:contract`: the two figures of the contract toolkit, each against its target:
 * the naming-drift gate's wall time on the whole repository after start-up (bench:gate, in its own
 * process), and a full `npm run generate` as a user runs it (process start-up, one JVM, types,
 * prettier), written into a temporary output root so the working tree stays untouched.
 */
const GENERATE_TARGET_MS = 30_000;

function main(): void {
  const repositoryRoot = join(__dirname, '..');
  console.log('bench:contract: timing the gate …');
  const gate = spawnSync('npx', ['tsx', join(repositoryRoot, 'scripts', 'bench-gate.ts')], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  });
  process.stdout.write(gate.stdout);

  console.log('bench:contract: timing npm run generate (3 runs) …');
  const outputRoot = mkdtempSync(join(tmpdir(), 'bench-generate-'));
  const durations: number[] = [];
  try {
    for (let run = 1; run <= 3; run += 1) {
      const started = performance.now();
      const result = spawnSync(
        'npx',
        [
          'tsx',
          join(repositoryRoot, 'scripts', 'codegen', 'generate.ts'),
          '--output-root',
          outputRoot,
        ],
        { cwd: repositoryRoot, encoding: 'utf8' },
      );
      if (result.status !== 0) throw new Error(`generate failed:\n${result.stderr}`);
      durations.push(performance.now() - started);
      console.log(
        `  run ${run}: ${durations[run - 1].toFixed(0)} ms — ${result.stdout.trim().split('\n').pop()}`,
      );
    }
  } finally {
    rmSync(outputRoot, { recursive: true, force: true });
  }
  const worst = Math.max(...durations);
  console.log(
    `bench:contract: npm run generate min ${Math.min(...durations).toFixed(0)} ms, max ` +
      `${worst.toFixed(0)} ms (target < ${GENERATE_TARGET_MS} ms): ${worst < GENERATE_TARGET_MS ? 'PASS' : 'FAIL'}`,
  );
  process.exitCode = gate.status === 0 && worst < GENERATE_TARGET_MS ? 0 : 1;
}

main();
