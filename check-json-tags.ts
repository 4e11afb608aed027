import { runCli } from './scripts/gate/cli';

/*
 * The naming-drift gate (`npm run check`). Receivers tolerate unknown fields, so a drifted wire name
 * never fails at run time — it silently takes the wrong branch. This fails the build instead.
 * The rules live in scripts/gate/; this file only runs them from the repository root.
 */
process.exitCode = runCli(process.argv.slice(2), __dirname);
