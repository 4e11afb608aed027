import type { Logger } from 'pino';
import type { ServiceConfig } from '../common/config/service-config';
import type { SamplerCore } from './sampler-core';

/** What the sampler's handlers share. */
export interface SamplerContext {
  config: ServiceConfig;
  logger: Logger;
  core: SamplerCore;
}
