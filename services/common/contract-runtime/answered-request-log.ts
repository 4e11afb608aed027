import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { answerLogLevel } from './answer-log-level';

/**
 * The request line of a contract operation, as pino-http writes it for the service's other routes
 * (create-service-request-listener.ts) — method and URL, status, time taken — plus the request id
 * and the operation, which tie it to the handler's own lines. Successful calls are debug: at the
 * usual level nothing is made for them.
 */
export function logAnsweredRequest(
  logger: Logger,
  request: IncomingMessage,
  status: number,
  elapsedMs: number,
  requestId: string,
  operationId: string | null,
): void {
  const level = answerLogLevel(status);
  if (level === 'silent' || !logger.isLevelEnabled(level)) return;
  logger[level](
    {
      req: { method: request.method, url: request.url },
      res: { status_code: status },
      // Whole milliseconds, as pino-http writes it.
      responseTime: Math.round(elapsedMs),
      request_id: requestId,
      ...(operationId === null ? {} : { operation: operationId }),
    },
    'request completed',
  );
}
