import type { CDPSession, Protocol } from 'puppeteer-core';
import { CdpEventSubscription } from './cdp-event-subscription';
import type { NetworkActivity } from './network-quiet-wait';
import { networkResourceTypeOf } from './network-resource-type';
import { MAX_WIRE_URL_LENGTH, NetworkLogEntry } from './rendered-page';

/** What the navigation's main document got, as far as the network layer saw it. */
export interface MainDocumentState {
  /** URL of the latest hop (redirects included). */
  url?: string;
  /** Status and headers (lowercase names) of the response that was rendered. */
  status?: number;
  headers?: Record<string, string>;
  /** Status seen on the wire even when the browser then dropped the response (204, 304 …). */
  wireStatus?: number;
  /** Chromium's net error when the main document failed without a response. */
  errorText?: string;
}

interface TrackedRequest {
  entry: NetworkLogEntry;
  isBlocked: boolean;
}

// Long-lived by design: they never "finish", so they must not hold the network-quiet wait open.
const STREAMING_TYPES = new Set<Protocol.Network.ResourceType>(['EventSource', 'WebSocket']);

/**
 * Builds network_log for one render from CDP Network events, tracks requests in flight and
 * follows the main frame's document.
 *
 * Two views of "in flight" serve the page-complete rule (page-settle-wait.ts):
 *  - `awaitingHead`: started, no response head and no failure yet — the network-quiet upper
 *    bound; a body the page never reads (fetch(...) without .text()) cannot hold it open;
 *  - `awaitingLoad`: started and neither finished nor failed — the short settle: a page's code
 *    reacts to a response once its body is in, so the settle time counts from there.
 *
 * Decisions:
 *  - every redirect hop is its own entry (its 3xx status included);
 *  - requests we blocked (images, fonts, media: `blockedReason` set) are left out — they never
 *    left the browser, so they are not network traffic of the page;
 *  - only http(s) URLs are logged: data:, blob: and Chromium's own error-page assets are not traffic;
 *  - the log is capped at `maxEntryCount` entries (a runaway page must not produce an unbounded
 *    object), and URLs at the contract's 8192 characters;
 *  - a reused page still shows the previous document until the new one commits: its requests are
 *    told apart by loader id. Accepted are the navigation's own document (main frame), everything
 *    loaded under its loader, and child-frame documents started once our document has answered
 *    (plus their loads). WebSockets carry no loader id; they count once our document answered.
 */
export class NetworkLogRecorder {
  readonly mainDocument: MainDocumentState = {};
  private readonly requests = new Map<string, TrackedRequest[]>();
  private readonly ordered: TrackedRequest[] = [];
  private readonly headPending = new Set<string>();
  private readonly loadPending = new Set<string>();
  private readonly activityListeners = new Set<() => void>();
  private lastActivityMs = Date.now();
  private activityCounter = 0;
  /** Requests without a response head or a failure yet (the network-quiet upper bound). */
  readonly awaitingHead: NetworkActivity = this.activityView(() => this.headPending.size);
  /** Requests neither finished nor failed yet (the short settle). */
  readonly awaitingLoad: NetworkActivity = this.activityView(() => this.loadPending.size);
  /** Called once, when the origin first answered the main document (see RenderRequest.onOriginAnswered). */
  private onMainDocumentAnswer: (() => void) | undefined;
  private readonly subscription: CdpEventSubscription;
  private mainDocumentRequestId: string | undefined;
  private readonly acceptedLoaderIds = new Set<string>();
  private hasMainDocumentAnswered = false;

  constructor(
    session: CDPSession,
    private readonly mainFrameId: string,
    private readonly maxEntryCount = 2000,
  ) {
    this.subscription = new CdpEventSubscription(session);
  }

  /** `listener` runs once: on the main document's first response head, redirect or failure. */
  onceMainDocumentAnswered(listener: () => void): void {
    this.onMainDocumentAnswer = listener;
  }

  private mainDocumentAnswered(): void {
    const listener = this.onMainDocumentAnswer;
    this.onMainDocumentAnswer = undefined;
    listener?.();
  }

  start(): void {
    this.subscription.on(
      'Network.requestWillBeSent',
      (event: Protocol.Network.RequestWillBeSentEvent) => this.onRequestWillBeSent(event),
    );
    this.subscription.on(
      'Network.responseReceived',
      (event: Protocol.Network.ResponseReceivedEvent) => this.onResponseReceived(event),
    );
    this.subscription.on(
      'Network.responseReceivedExtraInfo',
      (event: Protocol.Network.ResponseReceivedExtraInfoEvent) => {
        if (event.requestId === this.mainDocumentRequestId) {
          this.mainDocument.wireStatus = event.statusCode;
        }
      },
    );
    this.subscription.on(
      'Network.loadingFinished',
      (event: Protocol.Network.LoadingFinishedEvent) => this.finish(event.requestId),
    );
    this.subscription.on('Network.loadingFailed', (event: Protocol.Network.LoadingFailedEvent) =>
      this.onLoadingFailed(event),
    );
    this.subscription.on(
      'Network.webSocketCreated',
      (event: Protocol.Network.WebSocketCreatedEvent) => {
        if (!this.hasMainDocumentAnswered) return; // no loader id: judged by timing instead
        this.addEntry(event.requestId, {
          url: event.url,
          type: 'websocket',
          method: 'GET',
          http_status: null,
        });
      },
    );
    this.subscription.on(
      'Network.webSocketHandshakeResponseReceived',
      (event: Protocol.Network.WebSocketHandshakeResponseReceivedEvent) => {
        const latest = this.requests.get(event.requestId)?.at(-1);
        if (latest !== undefined) latest.entry.http_status = event.response.status;
      },
    );
  }

  stop(): void {
    this.subscription.detachAll();
    this.activityListeners.clear();
  }

  get networkLog(): NetworkLogEntry[] {
    return this.ordered
      .filter((request) => !request.isBlocked)
      .map((request) => ({ ...request.entry }));
  }

  /** When a request last started, got its head, finished or failed (ms since epoch). */
  get lastActivityAtMs(): number {
    return this.lastActivityMs;
  }

  /** Grows with every start, head, finish or failure: tells whether anything happened meanwhile. */
  get activityCount(): number {
    return this.activityCounter;
  }

  /** Called whenever a request starts, gets its head, finishes or fails; returns an unsubscribe. */
  onActivity(listener: () => void): () => void {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  private activityView(count: () => number): NetworkActivity {
    return {
      get inFlightCount() {
        return count();
      },
      onActivity: (listener) => this.onActivity(listener),
    };
  }

  private notifyActivity(): void {
    this.lastActivityMs = Date.now();
    this.activityCounter += 1;
    for (const listener of this.activityListeners) listener();
  }

  private addEntry(requestId: string, entry: NetworkLogEntry): void {
    if (!/^(https?|wss?):/i.test(entry.url) || this.ordered.length >= this.maxEntryCount) return;
    // Truncated rather than dropped: the entry still counts in health_signal.
    const tracked = {
      entry: { ...entry, url: entry.url.slice(0, MAX_WIRE_URL_LENGTH) },
      isBlocked: false,
    };
    this.ordered.push(tracked);
    this.requests.set(requestId, [...(this.requests.get(requestId) ?? []), tracked]);
  }

  /** Whether a request belongs to the document this render navigated to (see class comment). */
  private isOurs(event: Protocol.Network.RequestWillBeSentEvent, isMainDocument: boolean): boolean {
    if (isMainDocument || this.acceptedLoaderIds.has(event.loaderId)) {
      this.acceptedLoaderIds.add(event.loaderId);
      return true;
    }
    if (event.type === 'Document' && this.hasMainDocumentAnswered) {
      this.acceptedLoaderIds.add(event.loaderId); // an iframe of the new document
      return true;
    }
    return false;
  }

  private onRequestWillBeSent(event: Protocol.Network.RequestWillBeSentEvent): void {
    const isMainDocument = event.type === 'Document' && event.frameId === this.mainFrameId;
    if (!this.isOurs(event, isMainDocument)) return;
    if (event.redirectResponse !== undefined) {
      const previousHop = this.requests.get(event.requestId)?.at(-1);
      if (previousHop !== undefined) previousHop.entry.http_status = event.redirectResponse.status;
      if (event.requestId === this.mainDocumentRequestId) this.mainDocumentAnswered();
    }
    if (isMainDocument) {
      // A later main-frame document (script navigation) replaces the earlier one: it is what renders.
      if (event.requestId !== this.mainDocumentRequestId) {
        this.mainDocumentRequestId = event.requestId;
        Object.assign(this.mainDocument, {
          status: undefined,
          headers: undefined,
          errorText: undefined,
        });
      }
      this.mainDocument.url = event.request.url;
    }
    this.addEntry(event.requestId, {
      url: event.request.url,
      type: networkResourceTypeOf(event.type),
      method: event.request.method,
      http_status: null,
    });
    if (/^https?:/i.test(event.request.url) && !STREAMING_TYPES.has(event.type ?? 'Other')) {
      this.headPending.add(event.requestId);
      this.loadPending.add(event.requestId);
      this.notifyActivity();
    }
  }

  private onResponseReceived(event: Protocol.Network.ResponseReceivedEvent): void {
    const latest = this.requests.get(event.requestId)?.at(-1);
    if (latest !== undefined) latest.entry.http_status = event.response.status;
    // The entry is complete for the log once the response head is in; the body may still come.
    if (this.headPending.delete(event.requestId)) this.notifyActivity();
    if (event.requestId === this.mainDocumentRequestId) {
      this.mainDocumentAnswered();
      this.hasMainDocumentAnswered = true;
      this.mainDocument.status = event.response.status;
      this.mainDocument.url = event.response.url;
      this.mainDocument.headers = Object.fromEntries(
        Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]),
      );
    }
  }

  private onLoadingFailed(event: Protocol.Network.LoadingFailedEvent): void {
    if (event.blockedReason !== undefined) {
      for (const tracked of this.requests.get(event.requestId) ?? []) tracked.isBlocked = true;
    }
    if (event.requestId === this.mainDocumentRequestId) {
      this.mainDocumentAnswered();
      this.mainDocument.errorText = event.errorText;
    }
    this.finish(event.requestId);
  }

  private finish(requestId: string): void {
    const wasAwaitingHead = this.headPending.delete(requestId);
    const wasAwaitingLoad = this.loadPending.delete(requestId);
    if (wasAwaitingHead || wasAwaitingLoad) this.notifyActivity();
  }
}
