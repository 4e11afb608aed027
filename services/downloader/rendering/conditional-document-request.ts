import type { CDPSession, Protocol } from 'puppeteer-core';
import { CdpEventSubscription } from './cdp-event-subscription';

export interface DocumentValidators {
  readonly ifNoneMatch?: string;
  /** HTTP-date. */
  readonly ifModifiedSince?: string;
}

/**
 * Adds If-None-Match / If-Modified-Since to the main document request only, and notices a 304.
 *
 * Why the Fetch domain, limited to Document requests: extra headers set for the page
 * (Network.setExtraHTTPHeaders) would go to every subresource too, and a 304 to a navigation is
 * dropped by Chromium without a Network.responseReceived. Pausing only documents, only for
 * conditional renders, costs one round trip per document and touches nothing else. Only the first
 * hop gets the validators: they belong to the URL they were issued for.
 */
export class ConditionalDocumentRequest {
  /** Response headers of the 304, once seen. */
  notModifiedHeaders: Record<string, string> | undefined;
  private readonly subscription: CdpEventSubscription;
  /** The first main-frame document request after the page left about:blank is ours. */
  private firstHop: { networkId: string | undefined; url: string } | undefined;

  private constructor(
    private readonly session: CDPSession,
    private readonly mainFrameId: string,
    private readonly validators: DocumentValidators,
  ) {
    this.subscription = new CdpEventSubscription(session);
  }

  static async enable(
    session: CDPSession,
    mainFrameId: string,
    validators: DocumentValidators,
  ): Promise<ConditionalDocumentRequest> {
    const conditional = new ConditionalDocumentRequest(session, mainFrameId, validators);
    conditional.subscription.on(
      'Fetch.requestPaused',
      (event: Protocol.Fetch.RequestPausedEvent) => {
        void conditional.onPaused(event);
      },
    );
    await session.send('Fetch.enable', {
      patterns: [
        { urlPattern: '*', resourceType: 'Document', requestStage: 'Request' },
        { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' },
      ],
    });
    return conditional;
  }

  async disable(): Promise<void> {
    this.subscription.detachAll();
    await this.session.send('Fetch.disable').catch(() => undefined);
  }

  private async onPaused(event: Protocol.Fetch.RequestPausedEvent): Promise<void> {
    const isResponseStage =
      event.responseStatusCode !== undefined || event.responseErrorReason !== undefined;
    let headers: Protocol.Fetch.HeaderEntry[] | undefined;
    if (!isResponseStage && this.firstHop === undefined && event.frameId === this.mainFrameId) {
      this.firstHop = { networkId: event.networkId, url: event.request.url };
      headers = Object.entries(event.request.headers).map(([name, value]) => ({ name, value }));
      if (this.validators.ifNoneMatch) {
        headers.push({ name: 'If-None-Match', value: this.validators.ifNoneMatch });
      }
      if (this.validators.ifModifiedSince) {
        headers.push({ name: 'If-Modified-Since', value: this.validators.ifModifiedSince });
      }
    }
    const isFirstHop =
      this.firstHop !== undefined &&
      this.firstHop.networkId === event.networkId &&
      this.firstHop.url === event.request.url;
    if (isFirstHop && isResponseStage && event.responseStatusCode === 304) {
      this.notModifiedHeaders = Object.fromEntries(
        (event.responseHeaders ?? []).map(({ name, value }) => [name.toLowerCase(), value]),
      );
    }
    // The page may be gone (render aborted): then there is nothing left to continue.
    await this.session
      .send('Fetch.continueRequest', { requestId: event.requestId, headers })
      .catch(() => undefined);
  }
}
