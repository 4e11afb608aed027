import type { Server } from 'node:http';
import type { Express } from 'express';
import { answerMalformedRequestsWithErrorBody } from './malformed-request-answer';

/** Listens with `app` on `host`:`port`; a port in use is said in words an operator can act on. */
export function listenOn(app: Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
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
