import { createSamplerRouter } from '../../generated/sampler';
import openApiDocument from '../../generated/sampler/openapi.json';
import { runService, type RunningService } from '../common/service-host/run-service';
import { createSamplerHandlers } from './handlers';

/** Starts the sampler as its own process (see `--help` for flags and environment variables). */
export function startSampler(
  argv?: string[],
  environment?: NodeJS.ProcessEnv,
): Promise<RunningService> {
  return runService(
    {
      serviceName: 'sampler',
      apiDocument: openApiDocument,
      assemble: async ({ config, logger, routerOptions }) => ({
        contractRouter: createSamplerRouter(
          createSamplerHandlers({ config, logger }),
          routerOptions,
        ),
      }),
    },
    argv,
    environment,
  );
}

if (require.main === module) {
  startSampler().catch((error: unknown) => {
    console.error(
      `sampler failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
