import { runService, type RunningService } from '../common/service-host/run-service';
import { downloaderServiceDefinition, type DownloaderDependencies } from './assemble-downloader';

/** Starts the downloader as its own process (see `--help` for flags and environment variables). */
export function startDownloader(
  argv?: string[],
  environment: NodeJS.ProcessEnv = process.env,
  dependencies?: DownloaderDependencies,
): Promise<RunningService> {
  return runService(downloaderServiceDefinition(environment, dependencies), argv, environment);
}

if (require.main === module) {
  startDownloader().catch((error: unknown) => {
    console.error(
      `downloader failed to start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
