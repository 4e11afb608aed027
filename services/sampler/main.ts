import { createSamplerRouter } from '../../generated/sampler';
import openApiDocument from '../../generated/sampler/openapi.json';
import { runService, type RunningService } from '../common/service-host/run-service';
import { runAsProgram } from '../common/service-host/service-main';
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
      settingDefinitions: {},
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

if (require.main === module) runAsProgram('sampler', () => startSampler());
