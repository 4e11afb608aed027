import { runService, type RunningService } from '../common/service-host/run-service';
import { runAsProgram } from '../common/service-host/service-main';
import { downloaderServiceDefinition, type DownloaderDependencies } from './assemble-downloader';

/** Starts the downloader as its own process (see `--help` for flags and environment variables). */
export function startDownloader(
  argv?: string[],
  environment: NodeJS.ProcessEnv = process.env,
  dependencies?: DownloaderDependencies,
): Promise<RunningService> {
  return runService(downloaderServiceDefinition(environment, dependencies), argv, environment);
}

if (require.main === module) runAsProgram('downloader', () => startDownloader());
