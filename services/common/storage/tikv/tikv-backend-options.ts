import { BackoffPolicies, BackoffPolicy, DEFAULT_BACKOFF_POLICIES } from './retry/backoff-policies';
import { TikvConfigurationError } from './tikv-errors';

export interface TikvBackendOptions {
  /** PD client endpoints, `host:port` (an `http://` prefix is accepted). At least one. */
  pdEndpoints: string[];
  /**
   * Wall-clock allowance per backend operation for retries (region errors, busy stores, transport
   * failures, PD failover). When spent, the operation fails with TikvRetryBudgetExhaustedError.
   * Backoffs never sleep past it; the attempt in flight when it runs out may add up to one
   * `requestTimeoutMs`. Default 20 000 ms (client-go's raw-KV budget).
   */
  retryBudgetMs?: number;
  /** Deadline of each single gRPC call. Default 5 000 ms. */
  requestTimeoutMs?: number;
  /** gRPC max receive (and send) message size. Default 64 MiB (grpc-js' own default is 4 MiB). */
  maxReceiveMessageBytes?: number;
  /** Override some backoff schedules, e.g. to make tests fast. */
  backoff?: Partial<BackoffPolicies>;
  /**
   * Multiplex raw get/put/delete/scan (single and batch) over TiKV's BatchCommands stream, as
   * client-go does; compare-and-swap is always unary. Default true; false = unary calls only.
   */
  useBatchCommands?: boolean;
}

export interface ResolvedTikvBackendOptions {
  pdEndpoints: string[];
  retryBudgetMs: number;
  requestTimeoutMs: number;
  maxReceiveMessageBytes: number;
  backoff: BackoffPolicies;
  useBatchCommands: boolean;
}

export const DEFAULT_RETRY_BUDGET_MS = 20_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_RECEIVE_MESSAGE_BYTES = 64 * 1024 * 1024;

export function resolveTikvBackendOptions(options: TikvBackendOptions): ResolvedTikvBackendOptions {
  if (!Array.isArray(options.pdEndpoints) || options.pdEndpoints.length === 0) {
    throw new TikvConfigurationError('TikvBackend needs at least one PD endpoint (host:port)');
  }
  return {
    pdEndpoints: [...options.pdEndpoints],
    retryBudgetMs: positive('retryBudgetMs', options.retryBudgetMs, DEFAULT_RETRY_BUDGET_MS),
    requestTimeoutMs: positive(
      'requestTimeoutMs',
      options.requestTimeoutMs,
      DEFAULT_REQUEST_TIMEOUT_MS,
    ),
    maxReceiveMessageBytes: positive(
      'maxReceiveMessageBytes',
      options.maxReceiveMessageBytes,
      DEFAULT_MAX_RECEIVE_MESSAGE_BYTES,
    ),
    backoff: { ...DEFAULT_BACKOFF_POLICIES, ...withoutUndefined(options.backoff ?? {}) },
    useBatchCommands: options.useBatchCommands ?? true,
  };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new TikvConfigurationError(
      `TikvBackend option ${name} must be a positive number, got ${value}`,
    );
  }
  return value;
}

function withoutUndefined(
  overrides: Partial<BackoffPolicies>,
): Partial<Record<keyof BackoffPolicies, BackoffPolicy>> {
  return Object.fromEntries(Object.entries(overrides).filter(([, policy]) => policy !== undefined));
}
