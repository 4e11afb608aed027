import type { Logger } from 'pino';
import type { ServiceConfig } from '../common/config/service-config';

/** What the downloader's handlers share. Extend it as the service grows. */
export interface DownloaderContext {
  config: ServiceConfig;
  logger: Logger;
}
