import type { components } from '../../../generated/downloader/types';

export type WebPageObject = components['schemas']['WebPageObject'];
export type FailReason = NonNullable<components['schemas']['ErrorBody']['fail_reason']>;

/**
 * The port through which the sampling procedure fetches a page: one POST /v1/render of the
 * downloader, answered in the procedure's terms. The HTTP client and its error classes stay
 * behind it (services/sampler/downloader-edge/), so sampling code never meets a status code.
 */
export interface PageFetcher {
  /** Throws DownloaderUnavailableError when the downloader itself failed. */
  fetchPage(call: PageFetchCall, options: { signal?: AbortSignal }): Promise<PageFetchAnswer>;
}

export interface PageFetchCall {
  readonly url: string;
  readonly shouldRender: boolean;
  readonly waitSelector?: string | null;
  readonly timeoutMs: number;
  /** The interval the downloader keeps between requests to the domain. */
  readonly minIntervalMs: number;
}

export type PageFetchAnswer =
  | { readonly kind: 'page'; readonly page: WebPageObject }
  /** The downloader fetched and failed (render_failed) with this fail_reason. */
  | { readonly kind: 'failed'; readonly failReason: FailReason | string; readonly message: string }
  /** The downloader refused the request (destination_not_allowed, invalid_request). */
  | { readonly kind: 'refused'; readonly errorCode: string; readonly message: string }
  /** The domain is over the downloader's rate limit: try again after this long. */
  | { readonly kind: 'too_many_requests'; readonly retryAfterSeconds: number };

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
