import type { EgressFailureKind } from './egress-error';

export interface EgressFailureRecord {
  readonly kind: EgressFailureKind;
  readonly message: string;
  readonly atMs: number;
}

/**
 * The proxy's memory of recent failures per `host:port`.
 *
 * Why it exists: Chromium never shows a page what a proxy answered to CONNECT, and a proxied
 * request the proxy had to drop looks like a generic net error. When a navigation fails, the engine
 * asks here what really happened to that origin (refused? DNS? connect?). Keying by origin instead
 * of by request is exact enough because a refusal or DNS failure is a property of the origin, not
 * of the request. Bounded: the oldest entry is forgotten first.
 */
export class EgressFailureRegistry {
  private readonly records = new Map<string, EgressFailureRecord>();

  constructor(private readonly capacity = 1000) {}

  static keyOf(hostname: string, port: number): string {
    return `${hostname.toLowerCase()}:${port}`;
  }

  record(hostname: string, port: number, kind: EgressFailureKind, message: string): void {
    const key = EgressFailureRegistry.keyOf(hostname, port);
    this.records.delete(key); // re-insert so Map order stays oldest-first
    this.records.set(key, { kind, message, atMs: Date.now() });
    if (this.records.size > this.capacity) {
      this.records.delete(this.records.keys().next().value as string);
    }
  }

  /** The latest failure recorded for this origin at or after `notBeforeMs`. */
  latest(hostname: string, port: number, notBeforeMs: number): EgressFailureRecord | undefined {
    const record = this.records.get(EgressFailureRegistry.keyOf(hostname, port));
    return record !== undefined && record.atMs >= notBeforeMs ? record : undefined;
  }
}
