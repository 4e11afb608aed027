import type { CallOptions } from '../../common/contract-runtime/contract-client';
import type { DownloaderClient } from '../../../generated/downloader';
import {
  ContractHttpError,
  ContractTransportError,
  TooManyRequestsError,
} from '../../common/contract-runtime/client-errors';
import type { SamplingClock } from '../sampling/downloader-requests';
import type { WebPageObject } from '../sampling/page-fetcher';

type PageRenderer = Pick<DownloaderClient, 'renderPage'>;
type RenderBody = Parameters<PageRenderer['renderPage']>[0];

/** What the scripted downloader answers to one request. */
export type ScriptedAnswer =
  | { readonly html: string; readonly finalUrl?: string; readonly contentType?: string }
  | { readonly failReason: string }
  | { readonly retryAfterSeconds: number }
  /** The downloader cannot be reached at all. */
  | { readonly isUnreachable: true }
  | { readonly thrown: Error };

export interface RecordedCall {
  readonly body: RenderBody;
  readonly atMs: number;
}

/**
 * A virtual clock: sleeping advances time at once, so control-flow tests of waits run instantly
 * and can assert exact durations.
 */
export class VirtualClock implements SamplingClock {
  private currentMs = 1_000_000;
  readonly sleeps: number[] = [];

  nowMs(): number {
    return this.currentMs;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    this.currentMs += ms;
    await Promise.resolve();
    signal?.throwIfAborted();
  }

  advance(ms: number): void {
    this.currentMs += ms;
  }
}

/**
 * A stand-in for POST /v1/render that answers from a script keyed by `plain|render` + URL — only
 * for the procedure's control flow (waits, order, budgets); the detector itself is tested on a
 * real downloader in the integration test.
 */
export class ScriptedDownloader implements PageRenderer {
  readonly calls: RecordedCall[] = [];

  constructor(
    private readonly clock: VirtualClock,
    private readonly answer: (body: RenderBody, callIndex: number) => ScriptedAnswer,
    /** Virtual time one request takes. */
    private readonly requestMs = 50,
  ) {}

  async renderPage(body: RenderBody, options?: CallOptions): Promise<WebPageObject> {
    options?.signal?.throwIfAborted();
    this.calls.push({ body, atMs: this.clock.nowMs() });
    const answer = this.answer(body, this.calls.length - 1);
    this.clock.advance(this.requestMs);
    if ('thrown' in answer) throw answer.thrown;
    if ('isUnreachable' in answer) {
      throw new ContractTransportError('renderPage', 1, new Error('connect ECONNREFUSED'));
    }
    if ('retryAfterSeconds' in answer) {
      throw new TooManyRequestsError(
        'renderPage',
        { error_code: 'domain_rate_limited', message: 'over the limit' },
        answer.retryAfterSeconds,
      );
    }
    if ('failReason' in answer) {
      throw new ContractHttpError('renderPage', 502, {
        error_code: 'render_failed',
        message: answer.failReason,
        fail_reason: answer.failReason,
      });
    }
    const isRendered = body.should_render !== false;
    return {
      object_id: '0'.repeat(32),
      url: body.url,
      url_hash: '0'.repeat(16),
      final_url: answer.finalUrl ?? body.url,
      http_status: 200,
      fetch_status: 'done',
      is_rendered: isRendered,
      rendered_html: isRendered ? answer.html : null,
      response_body: isRendered ? null : answer.html,
      content_type: answer.contentType ?? 'text/html; charset=utf-8',
      content_hash: '0'.repeat(32),
      title: null,
      lang: null,
      etag: null,
      last_modified_at: null,
      fetched_at: '2026-12-01T00:00:00Z',
      render_duration_ms: 50,
      network_log: [],
      console_errors: [],
      link_list: [],
      health_signal: {
        xhr_total_count: 0,
        xhr_error_count: 0,
        xhr_throttled_count: 0,
        xhr_denied_count: 0,
        has_console_error: false,
        redirect_target_hash: '',
      },
    };
  }

  /** The calls for `url` (path only compared). */
  callsFor(path: string): RecordedCall[] {
    return this.calls.filter((call) => new URL(call.body.url).pathname === path);
  }
}
