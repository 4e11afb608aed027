import { createServer, type RequestListener, type Server } from 'node:http';
import { answerMalformedRequestsWithErrorBody } from './malformed-request-answer';

/**
 * Listens with `listener` on `host`:`port`; a port in use is said in words an operator can act on.
 */
export function listenOn(listener: RequestListener, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(listener).listen(port, host);
    answerMalformedRequestsWithErrorBody(server);
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `port ${port} on ${host} is already in use (set --port or the *_PORT variable)`,
            )
          : error,
      );
    });
  });
}
