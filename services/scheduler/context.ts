import type { Logger } from 'pino';
import type { ServiceConfig } from '../common/config/service-config';
import type { Frontier } from './frontier/frontier';

/** What the scheduler's handlers share. */
export interface SchedulerContext {
  config: ServiceConfig;
  logger: Logger;
  frontier: Frontier;
}
