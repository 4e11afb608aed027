import type { Logger } from 'pino';
import type { ServiceConfig } from '../common/config/service-config';
import type { DownloaderCore } from './downloader-core';

/** What the downloader's handlers share: the process config, its logger, and the assembled core. */
export interface DownloaderContext {
  config: ServiceConfig;
  logger: Logger;
  core: DownloaderCore;
}
