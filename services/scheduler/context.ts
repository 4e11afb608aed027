import type { Logger } from 'pino';
import type { ServiceConfig } from '../common/config/service-config';

/** What the scheduler's handlers share. Extend it as the service grows. */
export interface SchedulerContext {
  config: ServiceConfig;
  logger: Logger;
}
