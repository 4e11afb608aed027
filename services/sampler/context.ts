import type { Logger } from 'pino';
import type { ServiceConfig } from '../common/config/service-config';

/** What the sampler's handlers share. Extend it as the service grows. */
export interface SamplerContext {
  config: ServiceConfig;
  logger: Logger;
}
