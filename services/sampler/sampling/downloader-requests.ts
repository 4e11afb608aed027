import type { DownloaderClient } from '../../../generated/downloader';
import type { components } from '../../../generated/downloader/types';
import {
  ContractHttpError,
  ContractTransportError,
  TooManyRequestsError,
} from '../../common/contract-runtime/client-errors';
import { sleep } from '../../common/backoff/abortable-sleep';

export type WebPageObject = components['schemas']['WebPageObject'];
export type FailReason = NonNullable<components['schemas']['ErrorBody']['fail_reason']>;

/** The one downloader operation the procedure uses (the generated client, or a wrapper of it). */
export type PageRenderer = Pick<DownloaderClient, 'renderPage'>;

/** Time, injectable so tests control it. */
export interface SamplingClock {
  nowMs(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const SYSTEM_CLOCK: SamplingClock = { nowMs: () => Date.now(), sleep };

export interface PageRequest {
  readonly url: string;
  readonly shouldRender: boolean;
  readonly waitSelector?: string | null;
  readonly timeoutMs: number;
}

export type PageResponse =
  | { readonly kind: 'page'; readonly page: WebPageObject }
  /** The downloader answered 502 render_failed with this fail_reason. */
  | { readonly kind: 'failed'; readonly failReason: FailReason | string; readonly message: string }
  /** The downloader refused the request (400: destination_not_allowed, invalid_request). */
  | { readonly kind: 'refused'; readonly errorCode: string; readonly message: string }
  /** Waiting out more 429s would exceed the domain's budget; nothing was fetched. */
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds: number };

/**
 * The downloader itself failed (unreachable, 5xx without a contract answer, a token it refuses):
 * nothing is known about the site, so the procedure throws this instead of judging the domain.
 * The caller samples the domain again later.
 */
export class DownloaderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DownloaderUnavailableError';
  }
}

/** Margin of the HTTP call over the render's own `timeout_ms` (queueing at the downloader). */
const CALL_MARGIN_MS = 10_000;

/**
 * Every request of one domain's sampling goes through here, one at a time:
 *  - paced: a request leaves `intervalMs` after the previous one was answered. The downloader
 *    spaces requests from their arrival at the origin, which precedes the answer, so our own
 *    requests never collide with the slot they just used (and never draw a 429 for it);
 *  - a 429 is honoured: the next try waits `retry_after_seconds` (never less), abortable, and
 *    the waits of one domain add up to at most `maxRateLimitWaitMs` — past that the request
 *    ends `rate_limited` without another try;
 *  - `signal` is checked before every request and aborts every wait.
 */
export class DomainRequests {
  /** Sent as `min_interval_ms`; raised as robots.txt and the language become known. */
  intervalMs: number;
  renderCount = 0;
  plainFetchCount = 0;
  rateLimitedCount = 0;
  rateLimitWaitMs = 0;
  private lastAnsweredAtMs: number | null = null;

  constructor(
    private readonly dependencies: {
      readonly downloader: PageRenderer;
      readonly clock: SamplingClock;
    },
    private readonly options: {
      readonly initialIntervalMs: number;
      readonly maxRateLimitWaitMs: number;
      readonly signal?: AbortSignal;
    },
  ) {
    this.intervalMs = options.initialIntervalMs;
  }

  async fetch(request: PageRequest): Promise<PageResponse> {
    const { clock } = this.dependencies;
    for (;;) {
      await this.waitForSpacing();
      this.options.signal?.throwIfAborted();
      if (request.shouldRender) this.renderCount += 1;
      else this.plainFetchCount += 1;
      let failure: { error: unknown } | undefined;
      let page: WebPageObject | undefined;
      try {
        page = (await this.dependencies.downloader.renderPage(
          {
            url: request.url,
            should_render: request.shouldRender,
            should_store: false,
            timeout_ms: request.timeoutMs,
            min_interval_ms: this.intervalMs,
            ...(request.waitSelector ? { wait_selector: request.waitSelector } : {}),
          },
          { timeoutMs: request.timeoutMs + CALL_MARGIN_MS, signal: this.options.signal },
        )) as WebPageObject;
      } catch (error) {
        failure = { error };
      }
      this.lastAnsweredAtMs = clock.nowMs();
      if (failure === undefined) return { kind: 'page', page: page as WebPageObject };
      const answer = await this.answerOfError(failure.error);
      if (answer !== 'retry') return answer;
    }
  }

  private async waitForSpacing(): Promise<void> {
    if (this.lastAnsweredAtMs === null) return;
    const waitMs = this.lastAnsweredAtMs + this.intervalMs - this.dependencies.clock.nowMs();
    if (waitMs > 0) await this.dependencies.clock.sleep(waitMs, this.options.signal);
  }

  /** 'retry' after waiting out a 429; a PageResponse for the site's answers; throws otherwise. */
  private async answerOfError(error: unknown): Promise<PageResponse | 'retry'> {
    if (this.options.signal?.aborted) throw this.options.signal.reason;
    if (error instanceof TooManyRequestsError) {
      this.rateLimitedCount += 1;
      const waitMs = Math.max(1, error.retryAfterSeconds) * 1000;
      if (this.rateLimitWaitMs + waitMs > this.options.maxRateLimitWaitMs) {
        return { kind: 'rate_limited', retryAfterSeconds: error.retryAfterSeconds };
      }
      this.rateLimitWaitMs += waitMs;
      await this.dependencies.clock.sleep(waitMs, this.options.signal);
      // The wait already covers the spacing: the next try leaves right away.
      this.lastAnsweredAtMs = null;
      return 'retry';
    }
    if (error instanceof ContractHttpError) {
      if (error.status === 502 && typeof error.body.fail_reason === 'string') {
        return { kind: 'failed', failReason: error.body.fail_reason, message: error.message };
      }
      if (error.status === 400) {
        return { kind: 'refused', errorCode: error.errorCode, message: error.message };
      }
      throw new DownloaderUnavailableError(`the downloader answered: ${error.message}`, {
        cause: error,
      });
    }
    if (error instanceof ContractTransportError) {
      throw new DownloaderUnavailableError(error.message, { cause: error });
    }
    throw error;
  }
}
