import type { CDPSession, Protocol } from 'puppeteer-core';
import { CdpEventSubscription } from './cdp-event-subscription';

/** A JSON answer to one of the page's own XHR/fetch calls, body as text. */
export interface JsonResponse {
  readonly url: string;
  readonly body: string;
}

/** Bodies larger than this are not kept (a truncated JSON text cannot be read anyway). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/** At most this many bodies per render, so a chatty page cannot hold much memory. */
export const MAX_JSON_BODY_COUNT = 20;

const XHR_TYPES = new Set<Protocol.Network.ResourceType>(['XHR', 'Fetch']);

/**
 * Keeps the bodies of the page's same-origin GET XHR/fetch answers with a JSON content type while
 * it renders — the evidence for an API endpoint hint (CONTRACT.md POST /v1/api-endpoint-hints).
 * Bounded: 2xx only, at most `MAX_JSON_BODY_COUNT` bodies of at most `MAX_JSON_BODY_BYTES` each.
 * A body is read from Chromium when its load finished, before the page can move on.
 */
export class JsonResponseCollector {
  private readonly subscription: CdpEventSubscription;
  /** Same-origin GET XHR/fetch requests started during this render, by request id → URL. */
  private readonly candidates = new Map<string, string>();
  /** Of those, the ones answered 2xx with a JSON content type. */
  private readonly jsonAnswered = new Set<string>();
  private readonly reads: Array<Promise<JsonResponse | undefined>> = [];

  constructor(
    private readonly session: CDPSession,
    private readonly pageOrigin: string,
  ) {
    this.subscription = new CdpEventSubscription(session);
  }

  start(): void {
    this.subscription.on(
      'Network.requestWillBeSent',
      (event: Protocol.Network.RequestWillBeSentEvent) => {
        if (!XHR_TYPES.has(event.type ?? 'Other') || event.request.method !== 'GET') return;
        if (originOf(event.request.url) !== this.pageOrigin) return;
        this.candidates.set(event.requestId, event.request.url);
      },
    );
    this.subscription.on(
      'Network.responseReceived',
      (event: Protocol.Network.ResponseReceivedEvent) => {
        const { status, mimeType } = event.response;
        // A redirected request answers from wherever it went: only the page's origin counts.
        if (
          !this.candidates.has(event.requestId) ||
          originOf(event.response.url) !== this.pageOrigin
        ) {
          return;
        }
        this.candidates.set(event.requestId, event.response.url);
        if (status >= 200 && status < 300 && /[/+]json\b/i.test(mimeType)) {
          this.jsonAnswered.add(event.requestId);
        }
      },
    );
    this.subscription.on(
      'Network.loadingFinished',
      (event: Protocol.Network.LoadingFinishedEvent) => {
        if (!this.jsonAnswered.delete(event.requestId)) return;
        if (event.encodedDataLength > MAX_JSON_BODY_BYTES * 4) return;
        if (this.reads.length >= MAX_JSON_BODY_COUNT) return;
        this.reads.push(this.read(event.requestId, this.candidates.get(event.requestId) ?? ''));
      },
    );
  }

  stop(): void {
    this.subscription.detachAll();
  }

  /** Whether any JSON answer is being kept (the snapshot then also reads the main text). */
  get hasResponses(): boolean {
    return this.reads.length > 0;
  }

  /**
   * The bodies read (a read that failed — the page moved on — is left out). Waits at most
   * `timeoutMs` for reads still running: a hint is never worth holding a render.
   */
  async responses(timeoutMs: number): Promise<JsonResponse[]> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    const settled = await Promise.all(this.reads.map((read) => Promise.race([read, late])));
    clearTimeout(timer);
    return settled.filter((response): response is JsonResponse => response !== undefined);
  }

  private async read(requestId: string, url: string): Promise<JsonResponse | undefined> {
    try {
      const { body, base64Encoded } = await this.session.send('Network.getResponseBody', {
        requestId,
      });
      const text = base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
      if (Buffer.byteLength(text, 'utf8') > MAX_JSON_BODY_BYTES) return undefined;
      return { url, body: text };
    } catch {
      return undefined;
    }
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
