import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs one of the repository's TypeScript command-line scripts in a child process, as a user
 * would. Tests use it for scripts whose dependencies (prettier, openapi-typescript) are ES
 * modules that jest's module loader cannot require.
 */
export function runRepositoryScript(
  scriptPath: string,
  argumentList: string[] = [],
): { status: number | null; stdout: string; stderr: string } {
  const repositoryRoot = join(__dirname, '..', '..');
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repositoryRoot, scriptPath), ...argumentList],
    { cwd: repositoryRoot, encoding: 'utf8', timeout: 120_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
