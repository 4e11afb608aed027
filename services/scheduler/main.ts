import { runService, type RunningService } from '../common/service-host/run-service';
import { schedulerServiceDefinition, type SchedulerDependencies } from './assemble-scheduler';

/** Starts the scheduler as its own process (see `--help` for flags and environment variables). */
export function startScheduler(
  argv?: string[],
  environment: NodeJS.ProcessEnv = process.env,
  dependencies?: SchedulerDependencies,
): Promise<RunningService> {
  return runService(schedulerServiceDefinition(environment, dependencies), argv, environment);
}

if (require.main === module) {
  startScheduler().catch((error: unknown) => {
    console.error(
      `scheduler failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
