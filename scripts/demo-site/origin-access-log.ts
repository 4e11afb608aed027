import type { IncomingMessage, ServerResponse } from 'node:http';

/** One request as the origin saw it; `receivedAtMs` is when the request arrived (ms precision). */
export interface OriginAccessLogEntry {
  readonly host: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly receivedAt: string;
  readonly receivedAtMs: number;
  readonly userAgent: string;
}

/**
 * Per-host record of every request the demo hosts answered — the ground truth for politeness
 * tests (intervals between requests to one host, robots.txt honoured, blocked resources never
 * fetched, refused destinations never contacted).
 */
export class OriginAccessLog {
  private readonly entries: OriginAccessLogEntry[] = [];
  /** Requests that arrived and are not answered yet (host and path), in arrival order. */
  private readonly open = new Set<{ readonly host: string; readonly path: string }>();

  add(entry: OriginAccessLogEntry): void {
    this.entries.push(entry);
  }

  /** Entries in arrival order, all hosts or one host (e.g. "127.0.0.2"). */
  list(host?: string): OriginAccessLogEntry[] {
    return this.entries
      .filter((entry) => host === undefined || entry.host === host)
      .sort((left, right) => left.receivedAtMs - right.receivedAtMs);
  }

  /**
   * Requests to `host` that arrived and are still unanswered — what a test waits on to know a
   * request reached the origin (the entries above appear only once a request closed).
   */
  listOpen(host: string): string[] {
    return [...this.open].filter((request) => request.host === host).map(({ path }) => path);
  }

  clear(): void {
    this.entries.length = 0;
  }

  /**
   * Records `request` once its response closed (answered, or the client left first: status 0, e.g.
   * a render that gave up on a slow page). Call it when the request arrives.
   */
  recordWhenClosed(host: string, request: IncomingMessage, response: ServerResponse): void {
    const receivedAtMs = Date.now();
    const openRequest = { host, path: request.url ?? '/' };
    this.open.add(openRequest);
    response.once('close', () => {
      this.open.delete(openRequest);
      this.add({
        host,
        method: request.method ?? 'GET',
        path: request.url ?? '/',
        status: response.headersSent ? response.statusCode : 0,
        receivedAt: new Date(receivedAtMs).toISOString(),
        receivedAtMs,
        userAgent: request.headers['user-agent'] ?? '',
      });
    });
  }
}
