import { join } from 'node:path';
import { defaultPorts } from '../../services/common/config/service-config';
import type { ServiceName } from '../../services/common/storage/service-name';
import type { ServiceTokens } from './service-tokens';

/** Where everything of one local system run lives and listens. */
export interface SystemLayout {
  dataDirectory: string;
  ports: Record<ServiceName, number>;
  /** Demo hosts M0 writes rules for by hand. */
  demoHosts: string[];
  /** Client-rendered demo hosts without a hand-written rule: found through links, ruled by the sampler. */
  sampledDemoHosts: string[];
  demoPort: number;
  tokens: ServiceTokens;
}

export const systemServices: ServiceName[] = ['scheduler', 'downloader', 'sampler'];

export function serviceUrl(layout: SystemLayout, service: ServiceName): string {
  return `http://127.0.0.1:${layout.ports[service]}`;
}

export function demoBaseUrls(layout: SystemLayout): string[] {
  return layout.demoHosts.map((host) => `http://${host}:${layout.demoPort}`);
}

/** Every host the demo site serves: the hand-ruled ones first, then the sampled ones. */
export function allDemoHosts(layout: SystemLayout): string[] {
  return [...layout.demoHosts, ...layout.sampledDemoHosts];
}

export function portsFromEnvironment(environment: NodeJS.ProcessEnv): Record<ServiceName, number> {
  return Object.fromEntries(
    systemServices.map((service) => [
      service,
      Number(environment[`${service.toUpperCase()}_PORT`] ?? defaultPorts[service]),
    ]),
  ) as Record<ServiceName, number>;
}

/**
 * The environment every service of a local run gets: the shared data root, each service's URL and
 * token (a caller uses the provider's token), and for the downloader an allow-list of exactly the
 * demo site's loopback addresses — nothing else private or loopback is reachable.
 */
export function systemEnvironment(
  layout: SystemLayout,
  base: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  return {
    ...base,
    DATA_DIR: layout.dataDirectory,
    SCHEDULER_URL: serviceUrl(layout, 'scheduler'),
    DOWNLOADER_URL: serviceUrl(layout, 'downloader'),
    SAMPLER_URL: serviceUrl(layout, 'sampler'),
    SCHEDULER_TOKEN: layout.tokens.scheduler,
    DOWNLOADER_TOKEN: layout.tokens.downloader,
    SAMPLER_TOKEN: layout.tokens.sampler,
    DOWNLOADER_ALLOW_DESTINATIONS: allDemoHosts(layout).join(','),
    DOWNLOADER_WORKER_ID: base.DOWNLOADER_WORKER_ID ?? 'local-downloader-1',
  };
}

export function logDirectory(layout: SystemLayout): string {
  return join(layout.dataDirectory, 'logs');
}
