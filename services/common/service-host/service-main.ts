import { CommanderError } from 'commander';
import type { ServiceName } from '../storage/service-name';

/**
 * What a service's main.ts does when run as a program: start, and on failure say why once and
 * exit non-zero. `--help` is not a failure: commander has printed the help and asks for exit 0;
 * a bad flag value has been printed by commander already and only needs its exit code.
 */
export function runAsProgram(serviceName: ServiceName, start: () => Promise<unknown>): void {
  start().catch((error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    console.error(
      `${serviceName} failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
