import type { Dispatcher } from 'undici';
import { ContractHttpError, ContractTransportError, TooManyRequestsError } from './client-errors';
import type { HttpMethod, RetryPolicy } from './operation-definition';
import { deadlineBoundedPauseMs, PeerReachability } from './peer-reachability';
import { sleep } from '../backoff/abortable-sleep';
import { backoffDelay } from '../backoff/exponential-backoff';

/**
 * undici, loaded with a client's first call: a service that makes a client at start-up — the
 * scheduler's prober — would otherwise load it (~45 ms) before it can serve.
 */
let undiciLoaded: Promise<typeof import('undici')> | undefined;
function loadUndici(): Promise<typeof import('undici')> {
  // A failed load is not kept: the next call tries again.
  undiciLoaded ??= import('undici').catch((error: unknown) => {
    undiciLoaded = undefined;
    throw error;
  });
  return undiciLoaded;
}

export interface ContractClientOptions {
  /** e.g. http://127.0.0.1:7101 */
  baseUrl: string;
  /** The providing service's token (or a consumer token for the export endpoints). */
  token: string;
  /** Per-try timeout unless a call overrides it. Default 10 000 ms. */
  timeoutMs?: number;
  /** Tries for `bounded` operations (the contract: at most 3). */
  maximumAttemptCount?: number;
  /** First backoff ceiling; doubles per retry. Default 200 ms. */
  initialBackoffMs?: number;
  /** Backoff cap. Default 30 000 ms. */
  maximumBackoffMs?: number;
  /** Called before each retry (logging, metrics). */
  onRetry?: (event: RetryEvent) => void;
  /** Sent as User-Agent. */
  userAgent?: string;
  /**
   * Sees every successful answer as parsed, e.g. `countUnknownAnswerFields` counting what a newer
   * peer added.
   */
  onAnswer?: (operationId: string, status: number, answer: unknown) => void;
}

export interface RetryEvent {
  operationId: string;
  attemptNumber: number;
  delayMs: number;
  reason: string;
}

export interface CallOptions {
  /** Overrides the client's per-try timeout. */
  timeoutMs?: number;
  /** Aborts the call, including an until-success retry loop (e.g. on shutdown). */
  signal?: AbortSignal;
  /**
   * Epoch ms before which an answer is worth most (a report: its lease's expiry). Pauses between
   * retries are then at most half the time left, so a try lands soon after the peer returns.
   */
  retryDeadlineAtMs?: number;
}

export interface ContractCall {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template; `{name}` is replaced from pathParameters. */
  path: string;
  pathParameters?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  retryPolicy: RetryPolicy;
}

/** Statuses worth another try: the service (or a proxy) was briefly unable to answer. */
const retryableStatuses = new Set([500, 502, 503, 504]);

/**
 * The side of the contract a caller uses. Generated clients extend it with one typed method per
 * operation. Answers are returned exactly as parsed — unknown fields are preserved, never mapped
 * away, so a service that relays an object loses nothing a newer sender added.
 */
export class ContractClient {
  protected readonly options: Required<
    Omit<ContractClientOptions, 'onRetry' | 'userAgent' | 'onAnswer'>
  > &
    Pick<ContractClientOptions, 'onRetry' | 'userAgent' | 'onAnswer'>;
  /**
   * Notified of every answer the peer gives; a retry pause of any call of this client ends as soon
   * as another call was answered (the peer is back).
   */
  readonly reachability = new PeerReachability();

  constructor(options: ContractClientOptions) {
    this.options = {
      timeoutMs: 10_000,
      maximumAttemptCount: 3,
      initialBackoffMs: 200,
      maximumBackoffMs: 30_000,
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
  }

  protected async call<T>(call: ContractCall, callOptions: CallOptions = {}): Promise<T> {
    const url = this.buildUrl(call);
    const isUntilSuccess = call.retryPolicy === 'until_success';
    for (let attemptNumber = 1; ; attemptNumber += 1) {
      callOptions.signal?.throwIfAborted();
      const outcome = await this.tryOnce(call, url, callOptions);
      if (outcome.kind === 'answer') return outcome.value as T;

      const mayRetry =
        outcome.isRetryable && (isUntilSuccess || attemptNumber < this.options.maximumAttemptCount);
      if (!mayRetry) {
        throw outcome.error instanceof ContractHttpError
          ? outcome.error
          : new ContractTransportError(call.operationId, attemptNumber, outcome.error);
      }
      const delayMs =
        outcome.retryAfterSeconds !== undefined
          ? outcome.retryAfterSeconds * 1000
          : deadlineBoundedPauseMs(
              // Full jitter: many downloaders that lost the scheduler at once must not retry
              // in lockstep.
              Math.round(
                backoffDelay(
                  { initial: this.options.initialBackoffMs, cap: this.options.maximumBackoffMs },
                  { doublingCount: attemptNumber - 1, jitter: 'full' },
                ),
              ),
              callOptions.retryDeadlineAtMs,
              Date.now(),
            );
      this.options.onRetry?.({
        operationId: call.operationId,
        attemptNumber,
        delayMs,
        reason: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
      });
      // A 429's Retry-After is the peer's own word: honoured in full, never cut short.
      if (outcome.retryAfterSeconds !== undefined) {
        await sleep(delayMs, callOptions.signal);
      } else {
        await this.reachability.pause(delayMs, callOptions.signal);
      }
    }
  }

  private async tryOnce(
    call: ContractCall,
    url: string,
    callOptions: CallOptions,
  ): Promise<
    | { kind: 'answer'; value: unknown }
    | { kind: 'error'; error: unknown; isRetryable: boolean; retryAfterSeconds?: number }
  > {
    // Before the try's clock starts: the first call's load is not counted against its timeout.
    const { request } = await loadUndici();
    const timeout = AbortSignal.timeout(callOptions.timeoutMs ?? this.options.timeoutMs);
    const signal = callOptions.signal ? AbortSignal.any([timeout, callOptions.signal]) : timeout;
    let response: Dispatcher.ResponseData;
    try {
      // undici's request rather than fetch: the same connection pool (the global dispatcher) at a
      // fifth of the CPU per call — ~80 µs against ~420 µs for a report of 50 results in a scratch
      // loop — which every downloader pays per lease and per report. Redirects are not followed
      // (fetch followed them): no contract operation answers with one.
      response = await request(url, {
        method: call.method,
        headers: this.headers(call.body !== undefined),
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      });
    } catch (error) {
      // A caller's own abort is final; a timeout or a refused connection may be retried.
      if (callOptions.signal?.aborted) throw callOptions.signal.reason;
      return { kind: 'error', error, isRetryable: true };
    }

    const status = response.statusCode;
    // Below 500 the peer is up and working (a 5xx may be a proxy, or a peer that cannot work).
    if (status < 500) this.reachability.noteAnswered();
    const text = await response.body.text().catch(() => '');
    const parsed = parseJson(text);
    if (status >= 200 && status < 300) {
      if (parsed === undefined && text !== '') {
        return {
          kind: 'error',
          error: new Error(`${call.operationId}: answer is not JSON`),
          isRetryable: true,
        };
      }
      this.options.onAnswer?.(call.operationId, status, parsed);
      return { kind: 'answer', value: parsed };
    }

    const body = (isRecord(parsed) ? parsed : { message: text.slice(0, 500) }) as Record<
      string,
      unknown
    >;
    if (status === 429) {
      const retryAfterSeconds = readRetryAfterSeconds(body, response.headers['retry-after']);
      const error = new TooManyRequestsError(call.operationId, body, retryAfterSeconds);
      // Bounded callers back off themselves (the typed error tells them how long); only an
      // until-success call waits and tries again here.
      return {
        kind: 'error',
        error,
        isRetryable: call.retryPolicy === 'until_success',
        retryAfterSeconds,
      };
    }
    const error = new ContractHttpError(call.operationId, status, body);
    // A 502 carrying a contract error (render_failed) is a definitive answer, not a glitch.
    const isDefinitive = status === 502 && typeof body.error_code === 'string';
    return {
      kind: 'error',
      error,
      isRetryable: retryableStatuses.has(status) && !isDefinitive,
    };
  }

  private headers(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.token}`,
      Accept: 'application/json',
    };
    if (hasBody) headers['Content-Type'] = 'application/json';
    if (this.options.userAgent) headers['User-Agent'] = this.options.userAgent;
    return headers;
  }

  private buildUrl(call: ContractCall): string {
    const path = call.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      const value = call.pathParameters?.[name];
      if (value === undefined)
        throw new Error(`${call.operationId}: path parameter ${name} missing`);
      return encodeURIComponent(String(value));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined && value !== null) search.append(name, String(value));
    }
    const queryString = search.toString();
    return `${this.options.baseUrl}${path}${queryString ? `?${queryString}` : ''}`;
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readRetryAfterSeconds(
  body: Record<string, unknown>,
  header: string | string[] | undefined,
): number {
  const fromBody = body.retry_after_seconds;
  if (typeof fromBody === 'number' && fromBody > 0) return fromBody;
  const fromHeader = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(fromHeader) && fromHeader > 0 ? fromHeader : 1;
}
