import { createDownloaderRouter } from '../../generated/downloader';
import openApiDocument from '../../generated/downloader/openapi.json';
import { runService, type RunningService } from '../common/service-host/run-service';
import { createDownloaderHandlers } from './handlers';

/** Starts the downloader as its own process (see `--help` for flags and environment variables). */
export function startDownloader(
  argv?: string[],
  environment?: NodeJS.ProcessEnv,
): Promise<RunningService> {
  return runService(
    {
      serviceName: 'downloader',
      apiDocument: openApiDocument,
      assemble: async ({ config, logger, routerOptions }) => ({
        contractRouter: createDownloaderRouter(
          createDownloaderHandlers({ config, logger }),
          routerOptions,
        ),
      }),
    },
    argv,
    environment,
  );
}

if (require.main === module) {
  startDownloader().catch((error: unknown) => {
    console.error(
      `downloader failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
