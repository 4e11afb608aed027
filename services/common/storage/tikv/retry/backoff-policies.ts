/**
 * Backoff schedules per failure class, after client-go's `config/retry` and the recommendations in
 * the protocol notes §4.4. Delays double per attempt of the same class, up to `capMs`.
 */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
}

export type BackoffKind =
  /** Region missing from PD or from the store: the topology is moving. */
  | 'regionMiss'
  /** Leader election, region initialising, merging, read index not ready. */
  | 'regionScheduling'
  | 'staleCommand'
  | 'serverBusy'
  | 'diskFull'
  /** gRPC transport failure talking to a TiKV store. */
  | 'tikvRpc'
  /** gRPC transport failure or error answer from PD. */
  | 'pdRpc';

export type BackoffPolicies = Record<BackoffKind, BackoffPolicy>;

export const DEFAULT_BACKOFF_POLICIES: BackoffPolicies = {
  regionMiss: { baseMs: 2, capMs: 500 },
  regionScheduling: { baseMs: 2, capMs: 500 },
  staleCommand: { baseMs: 2, capMs: 1_000 },
  serverBusy: { baseMs: 100, capMs: 2_000 },
  diskFull: { baseMs: 500, capMs: 5_000 },
  tikvRpc: { baseMs: 100, capMs: 2_000 },
  pdRpc: { baseMs: 100, capMs: 1_000 },
};
