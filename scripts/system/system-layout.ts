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

/** How often `make run` renders an api domain's pages again for their links (default). */
export const DEMO_LINK_RENDER_INTERVAL_SECONDS = 300;

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
    // The demo's pace: pages re-visited every minute, so a domain's switch to its JSON API (v2)
    // shows in minutes; an api domain's pages rendered again every 5 minutes for their links.
    SCHEDULER_REVISIT_INTERVAL_SECONDS: base.SCHEDULER_REVISIT_INTERVAL_SECONDS ?? '60',
    SCHEDULER_API_LINK_RENDER_INTERVAL_SECONDS:
      base.SCHEDULER_API_LINK_RENDER_INTERVAL_SECONDS ?? String(DEMO_LINK_RENDER_INTERVAL_SECONDS),
    SAMPLER_API_HINT_CHECK_INTERVAL_MS: base.SAMPLER_API_HINT_CHECK_INTERVAL_MS ?? '2000',
  };
}

export function logDirectory(layout: SystemLayout): string {
  return join(layout.dataDirectory, 'logs');
}
