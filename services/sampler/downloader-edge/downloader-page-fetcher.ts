import type { DownloaderClient } from '../../../generated/downloader';
import {
  ContractHttpError,
  ContractTransportError,
  TooManyRequestsError,
} from '../../common/contract-runtime/client-errors';
import {
  DownloaderUnavailableError,
  type PageFetchAnswer,
  type PageFetchCall,
  type PageFetcher,
  type WebPageObject,
} from '../sampling/page-fetcher';

/** Margin of the HTTP call over the render's own `timeout_ms` (queueing at the downloader). */
const CALL_MARGIN_MS = 10_000;

/**
 * The sampling procedure's PageFetcher over the downloader's generated client: the one place the
 * sampler turns the downloader's HTTP answers (429, 502 render_failed, 400) into what they mean
 * for a sampling, and any other failure into DownloaderUnavailableError.
 */
export class DownloaderPageFetcher implements PageFetcher {
  constructor(private readonly client: Pick<DownloaderClient, 'renderPage'>) {}

  async fetchPage(
    call: PageFetchCall,
    options: { signal?: AbortSignal },
  ): Promise<PageFetchAnswer> {
    try {
      const page = await this.client.renderPage(
        {
          url: call.url,
          should_render: call.shouldRender,
          should_store: false,
          timeout_ms: call.timeoutMs,
          min_interval_ms: call.minIntervalMs,
          ...(call.waitSelector ? { wait_selector: call.waitSelector } : {}),
        },
        { timeoutMs: call.timeoutMs + CALL_MARGIN_MS, signal: options.signal },
      );
      return { kind: 'page', page: page as WebPageObject };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      return answerOfError(error);
    }
  }
}

function answerOfError(error: unknown): PageFetchAnswer {
  if (error instanceof TooManyRequestsError) {
    return { kind: 'too_many_requests', retryAfterSeconds: error.retryAfterSeconds };
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
