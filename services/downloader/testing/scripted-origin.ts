import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  readonly status: number;
  readonly body?: string;
  readonly contentType?: string;
}

export interface ScriptedOrigin {
  readonly host: string;
  readonly baseUrl: string;
  /** Paths requested, in arrival order. */
  readonly requestedPaths: string[];
  close(): Promise<void>;
}

/**
 * An origin on a loopback address whose answers the test scripts by path — robots.txt answering
 * 404 or 500, pages answering 503 — with the paths it saw as the ground truth.
 */
export async function startScriptedOrigin(
  host: string,
  answer: (path: string, request: IncomingMessage) => ScriptedAnswer,
): Promise<ScriptedOrigin> {
  const requestedPaths: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requestedPaths.push(path);
    const scripted = answer(path, request);
    response.writeHead(scripted.status, {
      'content-type': scripted.contentType ?? 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    });
    response.end(
      scripted.body ??
        `<!doctype html><html lang="en"><title>${scripted.status}</title><main>answer ${scripted.status}</main></html>`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    host,
    baseUrl: `http://${host}:${port}`,
    requestedPaths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
