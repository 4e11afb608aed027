import { sleep } from '../../common/backoff/abortable-sleep';
import type { PageFetchAnswer, PageFetcher } from './page-fetcher';

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

/** The page, or what the downloader said instead — a 429 is waited out here, never answered. */
export type PageResponse =
  | Exclude<PageFetchAnswer, { kind: 'too_many_requests' }>
  /** Waiting out more 429s would exceed the domain's budget; nothing was fetched. */
  | { readonly kind: 'rate_limited'; readonly retryAfterSeconds: number };

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
      readonly downloader: PageFetcher;
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
      const answer = await this.dependencies.downloader.fetchPage(
        { ...request, minIntervalMs: this.intervalMs },
        { signal: this.options.signal },
      );
      this.lastAnsweredAtMs = clock.nowMs();
      if (answer.kind !== 'too_many_requests') return answer;
      const waitMs = Math.max(1, answer.retryAfterSeconds) * 1000;
      this.rateLimitedCount += 1;
      if (this.rateLimitWaitMs + waitMs > this.options.maxRateLimitWaitMs) {
        return { kind: 'rate_limited', retryAfterSeconds: answer.retryAfterSeconds };
      }
      this.rateLimitWaitMs += waitMs;
      await clock.sleep(waitMs, this.options.signal);
      // The wait already covers the spacing: the next try leaves right away.
      this.lastAnsweredAtMs = null;
    }
  }

  private async waitForSpacing(): Promise<void> {
    if (this.lastAnsweredAtMs === null) return;
    const waitMs = this.lastAnsweredAtMs + this.intervalMs - this.dependencies.clock.nowMs();
    if (waitMs > 0) await this.dependencies.clock.sleep(waitMs, this.options.signal);
  }
}
