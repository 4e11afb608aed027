import type { RenderPageInput } from '../../../generated/downloader';
import { ContractError, serviceUnavailable } from '../../common/contract-runtime/contract-error';
import type {
  OriginFetchRequest,
  OriginFetchResult,
  OriginGateway,
} from '../fetching/origin-gateway';
import { PageObjectStorageError } from '../fetching/page-object-storage-error';
import type { WebPageObject } from '../fetching/web-page-object-store';
import { intervalOf, refusalError, requestTargetOf, retryAfterSeconds } from './request-target';

/** The request as the router hands it over: validated, the contract's defaults filled in. */
type RenderRequestBody = RenderPageInput['body'];

/** The render itself always gets at least this long, whatever waiting came first. */
const MIN_RENDER_MS = 1000;

function renderFailed(failReason: string, message: string): ContractError {
  return new ContractError(502, 'render_failed', message, { failReason });
}

/**
 * Entry B, POST /v1/render: one synchronous fetch under the domain's rate limit. Over the limit it
 * answers 429 with retry_after_seconds at once — the caller backs off itself. When the request
 * had to fetch robots.txt first, its page waits out that spacing (up to half of `timeout_ms`):
 * the caller could not have known, and a 429 for our own robots.txt fetch would only double its
 * traffic. `timeout_ms` bounds the whole answer.
 */
export class RenderEntry {
  constructor(
    private readonly gateway: OriginGateway,
    private readonly defaultMinIntervalMs: number,
  ) {}

  /** The gateway's domain errors, as the contract's: a storage fault is 503 (retry later). */
  private async fetch(request: OriginFetchRequest): Promise<OriginFetchResult> {
    try {
      return await this.gateway.fetch(request);
    } catch (error) {
      if (error instanceof PageObjectStorageError) {
        throw serviceUnavailable('the page object could not be stored; retry later');
      }
      throw error;
    }
  }

  async render(body: RenderRequestBody): Promise<WebPageObject> {
    const arrivedAtMs = Date.now();
    const target = requestTargetOf(body.url);
    const timeoutMs = body.timeout_ms;
    const result = await this.fetch({
      ...target,
      ...intervalOf(body.min_interval_ms, this.defaultMinIntervalMs),
      entryName: 'render_endpoint',
      shouldRender: body.should_render,
      waitSelector: body.wait_selector?.trim() || null,
      // Read when the fetch starts: time spent on robots.txt and the slot comes out of the budget.
      get timeoutMs() {
        return Math.max(MIN_RENDER_MS, timeoutMs - (Date.now() - arrivedAtMs));
      },
      shouldCheckRobots: true,
      shouldStore: body.should_store,
      admission: { kind: 'immediate', followUpUntilMs: arrivedAtMs + timeoutMs / 2 },
    });
    switch (result.kind) {
      case 'refused':
        throw refusalError(result.outcome);
      case 'robots_disallowed':
        throw renderFailed('robots_disallowed', result.message);
      case 'held_back': {
        const { decision } = result;
        if (decision.holdReason === 'stopping')
          throw serviceUnavailable('the downloader is stopping');
        const seconds = retryAfterSeconds(decision.retryAfterMs);
        throw new ContractError(
          429,
          'domain_rate_limited',
          `${target.domain} is over its limit (${decision.holdReason}); retry after ${seconds} s`,
          { retryAfterSeconds: seconds },
        );
      }
      case 'fetched':
        break;
    }
    const { outcome } = result;
    switch (outcome.kind) {
      case 'page':
        return result.pageObject as WebPageObject;
      case 'failed':
        throw renderFailed(outcome.failReason, outcome.message);
      case 'refused':
        throw refusalError(outcome);
      case 'not_modified':
        // Entry B sends no validators, so an origin answering 304 misbehaves.
        throw renderFailed(
          'http_client_error',
          `${target.url} answered 304 to an unconditional request`,
        );
    }
  }
}
