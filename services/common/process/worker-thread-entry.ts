import { Worker, type WorkerOptions } from 'node:worker_threads';
import { compiledModuleOf } from './service-entry-point';

/**
 * Starts a worker thread on a module of this tree given its path without extension: the compiled
 * `.js` when this code runs from dist/, otherwise the TypeScript source through tsx's CommonJS hook
 * (tests and development) — Node 20 does not carry `--import tsx` into a worker thread.
 */
export function startWorkerThread(
  pathWithoutExtension: string,
  options: Omit<WorkerOptions, 'eval'> = {},
): Worker {
  const compiled = compiledModuleOf(pathWithoutExtension);
  if (compiled !== undefined) return new Worker(compiled, options);
  // Resolved here: an evaluated worker resolves bare names from the working directory, which a
  // service started elsewhere does not share with this tree.
  const bootstrap = [
    `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();`,
    `require(${JSON.stringify(`${pathWithoutExtension}.ts`)});`,
  ].join('\n');
  return new Worker(bootstrap, { ...options, eval: true });
}
