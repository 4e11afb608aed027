import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { log } from './bench-log';

/** What the benches start the scheduler from: its compiled build, or its source through tsx. */
export type BenchRunFrom = 'dist' | 'source';

/**
 * BENCH_FRONTIER_RUN_FROM: `dist` (the default) starts the scheduler from the tree's compiled
 * build, as `make run` and a production start do; `source` from its TypeScript through tsx, as
 * the tests do. Under tsx every imported name is read through a getter (esbuild's CommonJS
 * output): 4 alternating rounds at 1M URLs, 16 workers, measured the build at 84–98 µs of main
 * thread per URL against 96–113 (docs/frontier-performance.md, thirty-sixth session).
 */
export function benchRunFromOf(environment: NodeJS.ProcessEnv): BenchRunFrom {
  const value = environment.BENCH_FRONTIER_RUN_FROM ?? 'dist';
  if (value === 'dist' || value === 'source') return value;
  throw new Error(`BENCH_FRONTIER_RUN_FROM must be dist or source, not ${JSON.stringify(value)}`);
}

/**
 * The root to start the scheduler of source tree `tree` from (startBenchScheduler's
 * `sourceRoot`): `tree/dist` once built, as `npm run build` builds it, or `tree` itself to run
 * the source. The build uses the tree's own TypeScript (bench:frontier-ab links this checkout's
 * node_modules into its base worktree), so both sides of an A/B are compiled alike.
 */
export function benchSourceRoot(tree: string, runFrom: BenchRunFrom): string {
  if (runFrom === 'source') return tree;
  const began = performance.now();
  log(`building ${tree} (tsc -p tsconfig.build.json) to run the scheduler from its dist/ …`);
  execFileSync(
    process.execPath,
    [join(tree, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: tree, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const root = join(tree, 'dist');
  const entry = join(root, 'services', 'scheduler', 'main.js');
  if (!existsSync(entry)) throw new Error(`the build of ${tree} made no ${entry}`);
  log(`  built in ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return root;
}
