import pino, { type Logger } from 'pino';

/**
 * Structured JSON log lines (one object per line) on stdout, bound to the service name. The level
 * comes from LOG_LEVEL (default info); tests usually set it to `silent`.
 */
export function createLogger(serviceName: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service: serviceName, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
