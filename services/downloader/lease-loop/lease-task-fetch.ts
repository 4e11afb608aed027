import type { Logger } from 'pino';
import type { components } from '../../../generated/scheduler';
import { endpointUrlFor } from '../../common/api-endpoint';
import type { DownloaderMetrics } from '../downloader-metrics';
import { requestTargetOf, type RequestTarget } from '../entries/request-target';
import { apiPageOutcome } from '../fetching/api-page';
import type {
  AdmissionMode,
  OriginFetchRequest,
  OriginFetchResult,
  OriginGateway,
} from '../fetching/origin-gateway';
import type { LeaseTask } from './report-results';

export type RenderStrategy = components['schemas']['RenderStrategy'];

export interface LeaseTaskFetch {
  readonly result: OriginFetchResult;
  /** How the page was fetched (the report's `render_strategy`). */
  readonly renderStrategy: RenderStrategy;
}

/**
 * One leased task, fetched the way it asks (CONTRACT.md §七, v2):
 *  - `render_strategy` api: the page's JSON endpoint (`endpointUrlFor`) with a plain GET, through
 *    the gateway like any fetch — the page's domain slot and interval, robots.txt checked for the
 *    endpoint and the page, the destination policy — stored as the page's object (`apiPageOutcome`).
 *    A mapping that does not fit the URL, or an answer without a value at `content_pointer`,
 *    renders the page instead;
 *  - render, or absent (a v1 scheduler): Chromium, as always.
 */
export class LeaseTaskFetcher {
  constructor(
    private readonly gateway: OriginGateway,
    private readonly metrics: DownloaderMetrics,
    private readonly logger: Logger,
  ) {}

  async fetch(
    task: LeaseTask,
    admission: AdmissionMode,
    signal?: AbortSignal,
  ): Promise<LeaseTaskFetch> {
    const leasedStrategy: RenderStrategy = task.render_strategy ?? 'render';
    let target: RequestTarget;
    try {
      target = requestTargetOf(task.url);
    } catch (error) {
      return {
        result: {
          kind: 'refused',
          outcome: {
            kind: 'refused',
            refusalReason: 'invalid_url',
            message: error instanceof Error ? error.message : String(error),
          },
        },
        renderStrategy: leasedStrategy,
      };
    }
    const common = {
      domain: target.domain,
      entryName: 'lease_loop',
      minIntervalMs: task.min_interval_ms,
      intervalSource: 'lease_message',
      timeoutMs: task.timeout_ms,
      shouldCheckRobots: true,
      shouldStore: true,
      admission,
      signal,
    } as const satisfies Partial<OriginFetchRequest>;
    if (leasedStrategy === 'api') {
      const viaApi = await this.fetchThroughApi(task, target, common);
      if (viaApi !== undefined) {
        this.countFetched(viaApi, 'api', 'api');
        return { result: viaApi, renderStrategy: 'api' };
      }
    }
    const rendered = await this.gateway.fetch({
      ...common,
      url: target.url,
      shouldRender: true,
      waitSelector: task.wait_selector?.trim() || null,
      etag: task.etag,
      lastModifiedAt: task.last_modified_at,
    });
    this.countFetched(rendered, leasedStrategy, 'render');
    return { result: rendered, renderStrategy: 'render' };
  }

  /** Counts a task that reached the origin (not one held back, refused or blocked by robots). */
  private countFetched(
    result: OriginFetchResult,
    leasedStrategy: RenderStrategy,
    usedStrategy: RenderStrategy,
  ): void {
    if (result.kind !== 'fetched') return;
    this.metrics.leaseTaskStrategyCount.inc({
      leased_strategy: leasedStrategy,
      render_strategy: usedStrategy,
    });
  }

  /** Undefined: the mapping or the answer does not fit — render the page instead. */
  private async fetchThroughApi(
    task: LeaseTask,
    page: RequestTarget,
    common: Omit<OriginFetchRequest, 'url' | 'shouldRender' | 'waitSelector'>,
  ): Promise<OriginFetchResult | undefined> {
    const apiEndpoint = task.api_endpoint;
    const endpointUrl = apiEndpoint ? endpointUrlFor(apiEndpoint, page.url) : undefined;
    let endpoint: RequestTarget | undefined;
    try {
      endpoint = endpointUrl === undefined ? undefined : requestTargetOf(endpointUrl);
    } catch {
      endpoint = undefined;
    }
    if (apiEndpoint == null || endpoint === undefined) {
      this.logger.info(
        { url: page.url, page_url_pattern: apiEndpoint?.page_url_pattern ?? null },
        'api task whose endpoint mapping does not fit the URL; rendering it',
      );
      return undefined;
    }
    const result = await this.gateway.fetch({
      ...common,
      url: endpoint.url,
      robotsAlsoCheckedUrls: [page.url],
      shouldRender: false,
      waitSelector: null,
      // The task's validators belong to the page, not to its endpoint.
      etag: null,
      lastModifiedAt: null,
      interpretPage: (outcome) => apiPageOutcome(outcome, page.url, apiEndpoint.content_pointer),
    });
    // The endpoint does not know this page (a page the mapping covers that has no JSON behind it,
    // e.g. a client-routed page of another kind): the mapping does not fit here — render it.
    if (
      result.kind === 'fetched' &&
      result.outcome.kind === 'failed' &&
      result.outcome.failReason === 'http_client_error'
    ) {
      this.logger.info(
        { url: page.url, endpoint_url: endpoint.url, http_status: result.outcome.httpStatus },
        'the endpoint answered a client error for this page; rendering the page',
      );
      return undefined;
    }
    if (result.kind === 'fetched' && result.outcome.kind === 'page' && !result.pageObject) {
      this.logger.info(
        { url: page.url, endpoint_url: endpoint.url, content_pointer: apiEndpoint.content_pointer },
        'the endpoint answered no JSON value at content_pointer; rendering the page',
      );
      return undefined;
    }
    return result;
  }
}
