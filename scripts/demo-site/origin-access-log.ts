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

  add(entry: OriginAccessLogEntry): void {
    this.entries.push(entry);
  }

  /** Entries in arrival order, all hosts or one host (e.g. "127.0.0.2"). */
  list(host?: string): OriginAccessLogEntry[] {
    return this.entries
      .filter((entry) => host === undefined || entry.host === host)
      .sort((left, right) => left.receivedAtMs - right.receivedAtMs);
  }

  clear(): void {
    this.entries.length = 0;
  }
}
