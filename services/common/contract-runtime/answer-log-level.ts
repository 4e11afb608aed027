import type { LevelWithSilent } from 'pino';

/**
 * The log level of an answered request, by status. Errors are for the service's own faults —
 * a 500 (a bug or a broken dependency); a 503 means the service cannot work right now (warn).
 * Outcomes the contract expects are not faults: a 502 render_failed is the origin's failure, a
 * 501 an operation not built yet, a 429 the rate limit doing its job (info). Other client
 * mistakes (4xx) are warnings; successful calls — the lease loop's heartbeat — are debug.
 */
export function answerLogLevel(status: number): LevelWithSilent {
  if (status === 500) return 'error';
  if (status === 503) return 'warn';
  if (status >= 500 || status === 429) return 'info';
  if (status >= 400) return 'warn';
  return 'debug';
}
