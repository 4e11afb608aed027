import { createSchedulerRouter } from '../../generated/scheduler';
import openApiDocument from '../../generated/scheduler/openapi.json';
import { runService, type RunningService } from '../common/service-host/run-service';
import { createSchedulerHandlers } from './handlers';

/** Starts the scheduler as its own process (see `--help` for flags and environment variables). */
export function startScheduler(
  argv?: string[],
  environment?: NodeJS.ProcessEnv,
): Promise<RunningService> {
  return runService(
    {
      serviceName: 'scheduler',
      apiDocument: openApiDocument,
      assemble: async ({ config, logger, routerOptions }) => ({
        contractRouter: createSchedulerRouter(
          createSchedulerHandlers({ config, logger }),
          routerOptions,
        ),
      }),
    },
    argv,
    environment,
  );
}

if (require.main === module) {
  startScheduler().catch((error: unknown) => {
    console.error(
      `scheduler failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
