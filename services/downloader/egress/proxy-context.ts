import type { Agent } from 'node:http';
import type { ResolvedAddress } from './destination-resolver';
import type { EgressError } from './egress-error';

/** What the proxy's request handlers share; implemented by EgressProxy. */
export interface ProxyContext {
  readonly agent: Agent;
  readonly maxResponseBytes: number;
  readonly maxTunnelBytes: number;
  readonly idleTimeoutMs: number;
  /** Safe lookup plus the proxy's own extra rule (never connect to itself). */
  resolveTarget(hostname: string, port: number): Promise<ResolvedAddress>;
  /** Remembers an origin-side failure so the engine can classify a navigation that hit it. */
  recordFailure(hostname: string, port: number, error: EgressError): void;
  /** Counts a request sent again because the origin closed its reused connection. */
  onClosedConnectionRetry(): void;
}
