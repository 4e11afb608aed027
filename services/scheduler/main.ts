import { runService, type RunningService } from '../common/service-host/run-service';
import { runAsProgram } from '../common/service-host/service-main';
import { schedulerServiceDefinition, type SchedulerDependencies } from './assemble-scheduler';

/** Starts the scheduler as its own process (see `--help` for flags and environment variables). */
export function startScheduler(
  argv?: string[],
  environment: NodeJS.ProcessEnv = process.env,
  dependencies?: SchedulerDependencies,
): Promise<RunningService> {
  return runService(schedulerServiceDefinition(environment, dependencies), argv, environment);
}

if (require.main === module) runAsProgram('scheduler', () => startScheduler());
