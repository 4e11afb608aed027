import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServiceName } from '../../services/common/storage/service-name';
import {
  startServiceProcess,
  type StartedServiceProcess,
} from '../../services/common/testing/service-process';
import { startDemoSite, type DemoSite } from '../demo-site/demo-site';

export type ServiceTokens = Record<ServiceName, string>;

export function newServiceTokens(): ServiceTokens {
  const token = () => randomBytes(16).toString('hex');
  return { scheduler: token(), downloader: token(), sampler: token() };
}

/** Flags and variables every service of a reliability run shares. */
export interface ServiceStart {
  readonly workDirectory: string;
  readonly tokens: ServiceTokens;
  readonly demo: DemoSite;
  /** The scheduler's URL once it runs (the downloader leases from it, the sampler reads it). */
  readonly schedulerUrl?: string;
  readonly downloaderUrl?: string;
}

function environmentOf(start: ServiceStart): NodeJS.ProcessEnv {
  return {
    SCHEDULER_TOKEN: start.tokens.scheduler,
    DOWNLOADER_TOKEN: start.tokens.downloader,
    SAMPLER_TOKEN: start.tokens.sampler,
    ...(start.schedulerUrl === undefined ? {} : { SCHEDULER_URL: start.schedulerUrl }),
    ...(start.downloaderUrl === undefined ? {} : { DOWNLOADER_URL: start.downloaderUrl }),
    DOWNLOADER_ALLOW_DESTINATIONS: start.demo.hosts.join(','),
    // Every answer checked against the contract: a violation is a 500 the fuzzer reports.
    CONTRACT_VALIDATE_RESPONSES: '1',
    LOG_LEVEL: 'info',
  };
}

/** One service as its own process, its data under `<work>/<name>`. */
export function startService(
  service: ServiceName,
  start: ServiceStart,
  options: { name?: string; argumentList?: readonly string[] } = {},
): Promise<StartedServiceProcess> {
  return startServiceProcess(
    service,
    [
      '--data-dir',
      join(start.workDirectory, options.name ?? service),
      ...(options.argumentList ?? []),
    ],
    environmentOf(start),
    60_000,
  );
}

export { startDemoSite };

/** Keeps a service's JSON log lines in a file (for a look after a failed run). */
export function writeServiceLog(service: StartedServiceProcess, path: string): void {
  writeFileSync(path, service.logLines.map((line) => JSON.stringify(line)).join('\n') + '\n');
}
