import { configuredChromiumPath } from '../../common/chromium/chromium-executable';
import { normalizeUrl, UrlNormalizationError } from '../../common/url/normalize-url';
import { DestinationPolicy } from '../egress/destination-policy';
import { DestinationResolver, HostLookup } from '../egress/destination-resolver';
import { EgressError } from '../egress/egress-error';
import { BrowserTrafficRefuser } from '../egress/browser-traffic-refuser';
import { EgressProxy, type EgressProxyCounters } from '../egress/egress-proxy';
import { DEFAULT_CRAWLER_USER_AGENT } from '../egress/plain-http-fetch';
import {
  detectBrowserContainment,
  type BrowserContainment,
  type ContainmentKind,
} from './browser-containment';
import { PooledPage, watchForCrash } from './browser-generation';
import { BrowserProfiles } from './browser-profiles';
import { DEFAULT_RENDERER_PROCESS_LIMIT } from './chromium-arguments';
import { contractTimeToHttpDate } from './contract-time';
import { failedOutcome, outcomeOfEgressError, refusedOutcome } from './outcome-builders';
import { DEFAULT_RECYCLE_AFTER_RENDER_COUNT, PagePool } from './page-pool';
import { pendingTimerTrackerSource } from './pending-timer-tracker';
import {
  monitorEventLoopLag,
  procLoadReader,
  type EventLoopLag,
  type LoadReader,
} from './pool-sizing/load-reading';
import { PagePoolSizer, type PoolSizingStatus } from './pool-sizing/page-pool-sizer';
import {
  invalidSelectorOutcome,
  PageRenderSettings,
  PageRenderTask,
  renderOnPage,
} from './page-render';
import type { RenderOutcome, RenderRequest } from './render-outcome';
import {
  outcomeCountKey,
  RenderEngineObserver,
  RenderEngineStatistics,
} from './render-engine-observer';
import {
  DEFAULT_RENDERER_HEAP_RECLAIM,
  RendererHeapReclaimer,
  type RendererHeapReclaimSettings,
} from './renderer-heap-reclaim';
import { fetchWithoutRendering } from './unrendered-fetch';
import { WaitSelectorCache } from './wait-selector-cache';

export interface RenderEngineOptions {
  /** Which destinations may be contacted; tests and the demo allow-list their loopback addresses. */
  readonly destinationPolicy: DestinationPolicy;
  /** DNS lookup (injectable: tests never query a resolver). */
  readonly hostLookup?: HostLookup;
  /** Pages rendering at once (= pool size) when the pool does not size itself (default 4). */
  readonly concurrency?: number;
  /** The pool sizes itself within these bounds (pool-sizing/); `concurrency` is then ignored. */
  readonly poolSizing?: PoolSizingOptions;
  /** Renders per browser before it is replaced (default DEFAULT_RECYCLE_AFTER_RENDER_COUNT). */
  readonly recycleAfterRenderCount?: number;
  readonly executablePath?: string;
  /** Honest crawler identification; appended to Chromium's UA, used alone for plain fetches. */
  readonly userAgent?: string;
  /** Page complete: nothing in flight this long and nothing scheduled soon (default 100). */
  readonly settleMs?: number;
  /** The network-quiet window, the settle's upper bound (default 400). */
  readonly quietWindowMs?: number;
  /** Longest wait for the page to settle after wait_selector (default 2000). */
  readonly quietWindowCapMs?: number;
  /** Rendered HTML characters / plain-fetch body bytes; larger → content_too_large. */
  readonly maxContentBytes?: number;
  readonly maxLinkCount?: number;
  /**
   * Keep the page's same-origin JSON answers and look for the one that carried its main text
   * (v2 API endpoint hints, `PageOutcome.apiEndpointCandidate`). Default false: nobody would use it.
   */
  readonly isApiEvidenceCollected?: boolean;
  readonly maxRedirectCount?: number;
  readonly extraChromiumArguments?: readonly string[];
  /** Renderer processes per browser at most (default DEFAULT_RENDERER_PROCESS_LIMIT). */
  readonly rendererProcessLimit?: number;
  /** When a returned page's renderer is collected (default DEFAULT_RENDERER_HEAP_RECLAIM). */
  readonly rendererHeapReclaim?: RendererHeapReclaimSettings;
  readonly observer?: RenderEngineObserver;
  /** How long stop() lets renders in flight finish before closing the browser (default 10 s). */
  readonly stopGraceMs?: number;
  /**
   * Where browser profiles live (a service: under its data directory; what an earlier run left
   * there is removed at start). Default: a temporary directory of this engine's own.
   */
  readonly profileRoot?: string;
}

export interface PoolSizingOptions {
  readonly minSize: number;
  /** The size at start (clamped to the bounds). */
  readonly initialSize: number;
  /** The operator's brake (max_concurrent_count), read at every decision. */
  readonly brake: () => number;
  /** No pool grows past this, whatever the brake says. */
  readonly hardMaxSize: number;
  /** What the machine and the process tree use (tests pass made-up readings). */
  readonly readLoad?: LoadReader;
  /** The event loop's delay (tests pass a made-up one). */
  readonly eventLoopLag?: EventLoopLag;
  readonly sampleIntervalMs?: number;
}

/** Past the render's own timeout, how long we still wait before declaring the page hung. */
const HARD_LIMIT_GRACE_MS = 5000;
const STOP_GRACE_MS = 10_000;

function delay(milliseconds: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, milliseconds);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * The render engine core: one long-lived Chromium behind the egress proxy, a bounded pool of
 * reused pages, and the plain-HTTP path for `should_render = false`.
 *
 * `render()` always settles with an outcome (page | not_modified | failed | refused): a browser
 * that dies mid-render fails its renders with `browser_crashed` and is replaced; a page that hangs
 * past its timeout is discarded. Rate limits and robots.txt are the politeness layer's job: it
 * should call `render()` only when `freePageCount > 0`, or the call queues for a page.
 */
export class RenderEngine {
  private readonly resolver: DestinationResolver;
  private readonly proxy: EgressProxy;
  /** Chromium's own, non-page traffic goes here and is refused (browser-traffic-refuser.ts). */
  private readonly browserTrafficRefuser = new BrowserTrafficRefuser();
  private pool: PagePool | undefined;
  private sizer: PagePoolSizer | undefined;
  private profiles: BrowserProfiles | undefined;
  private containment: BrowserContainment | undefined;
  private readonly waitSelectors = new WaitSelectorCache();
  private readonly inFlight = new Set<Promise<RenderOutcome>>();
  private readonly outcomeCounts: Record<string, number> = {};
  private browserLossCount = 0;
  private queuedRenderCount = 0;
  private isStopping = false;
  private initialSize: number;
  private readonly userAgent: string;
  private readonly maxContentBytes: number;
  private readonly renderSettings: PageRenderSettings;

  constructor(private readonly options: RenderEngineOptions) {
    this.resolver = new DestinationResolver({
      policy: options.destinationPolicy,
      lookup: options.hostLookup,
    });
    this.proxy = new EgressProxy({ resolver: this.resolver });
    this.initialSize = options.concurrency ?? 4;
    this.userAgent = options.userAgent ?? DEFAULT_CRAWLER_USER_AGENT;
    this.maxContentBytes = options.maxContentBytes ?? 10 * 1024 * 1024;
    this.renderSettings = {
      settleMs: options.settleMs ?? 100,
      quietWindowMs: options.quietWindowMs ?? 400,
      quietWindowCapMs: options.quietWindowCapMs ?? 2000,
      maxHtmlCharacterCount: this.maxContentBytes,
      maxLinkCount: options.maxLinkCount ?? 5000,
      isApiEvidenceCollected: options.isApiEvidenceCollected ?? false,
      egressFailures: this.proxy.failures,
    };
  }

  /** Starts the egress proxy and the first browser; throws when Chromium can't be launched. */
  async start(): Promise<void> {
    this.profiles =
      this.options.profileRoot === undefined
        ? await BrowserProfiles.temporary()
        : await BrowserProfiles.underDataDirectory(this.options.profileRoot);
    this.containment = detectBrowserContainment();
    await this.proxy.start();
    await this.browserTrafficRefuser.start();
    const observer = this.options.observer;
    const sizing = this.options.poolSizing;
    if (sizing !== undefined) {
      // The brake is read now: the service restores the operator's value before starting us.
      this.initialSize = Math.max(
        sizing.minSize,
        Math.min(sizing.initialSize, sizing.hardMaxSize, sizing.brake()),
      );
    }
    this.pool = new PagePool({
      size: this.initialSize,
      recycleAfterRenderCount:
        this.options.recycleAfterRenderCount ?? DEFAULT_RECYCLE_AFTER_RENDER_COUNT,
      launchSettings: {
        executablePath: this.options.executablePath ?? configuredChromiumPath(),
        pageProxyUrl: this.proxy.proxyUrl,
        browserProxyUrl: this.browserTrafficRefuser.proxyUrl,
        crawlerUserAgent: this.userAgent,
        isResponseBodyRead: this.renderSettings.isApiEvidenceCollected,
        newDocumentScript: pendingTimerTrackerSource(this.renderSettings.quietWindowCapMs),
        extraArguments: this.options.extraChromiumArguments,
        rendererProcessLimit: this.options.rendererProcessLimit ?? DEFAULT_RENDERER_PROCESS_LIMIT,
        profiles: this.profiles,
        containment: this.containment,
      },
      heapReclaimer: new RendererHeapReclaimer(
        this.options.rendererHeapReclaim ?? DEFAULT_RENDERER_HEAP_RECLAIM,
        (collection) => observer?.rendererHeapCollected?.(collection),
      ),
      events: {
        browserStarted: (generation) =>
          observer?.browserStarted?.({
            sequenceNumber: generation.sequenceNumber,
            processId: generation.processId,
          }),
        browserLost: (generation) => {
          this.browserLossCount += 1;
          observer?.browserLost?.({ sequenceNumber: generation.sequenceNumber });
        },
      },
    });
    try {
      await this.pool.warmUp();
    } catch (error) {
      await this.stop();
      throw error;
    }
    this.startSizer(this.pool);
  }

  private startSizer(pool: PagePool): void {
    const sizing = this.options.poolSizing;
    if (sizing === undefined) return;
    this.sizer = new PagePoolSizer({
      pool,
      minSize: sizing.minSize,
      brake: sizing.brake,
      hardMaxSize: sizing.hardMaxSize,
      readLoad: sizing.readLoad ?? procLoadReader(),
      eventLoopLag: sizing.eventLoopLag ?? monitorEventLoopLag(),
      sampleIntervalMs: sizing.sampleIntervalMs,
      onResize: (change) => this.options.observer?.poolResized?.(change),
    });
    this.sizer.start();
  }

  /** Pages rendering at once now (the pool's current size). */
  get concurrency(): number {
    return this.pool?.size ?? this.initialSize;
  }

  /** The pool's size, its bounds and the reason of its last change. */
  poolSizingStatus(): PoolSizingStatus {
    if (this.sizer !== undefined) return this.sizer.status();
    return {
      size: this.concurrency,
      minSize: this.concurrency,
      maxSize: this.concurrency,
      isSelfSizing: false,
      lastChange: {
        fromSize: this.concurrency,
        toSize: this.concurrency,
        reason: 'fixed_size',
        atMs: 0,
        window: undefined,
      },
      lastWindow: undefined,
    };
  }

  /** The operator changed max_concurrent_count: a pool above it shrinks at once. */
  brakeChanged(): void {
    this.sizer?.brakeChanged();
  }

  /** Lets renders in flight finish (bounded), then closes the browser and the proxy. */
  async stop(): Promise<void> {
    this.isStopping = true;
    this.sizer?.stop();
    const grace = delay(this.options.stopGraceMs ?? STOP_GRACE_MS);
    await Promise.race([Promise.allSettled([...this.inFlight]), grace.promise]);
    grace.cancel();
    await this.pool?.close();
    await this.proxy.stop();
    await this.browserTrafficRefuser.stop();
    await this.profiles?.dispose();
  }

  /** How Chromium is tied to this process (browser-containment.ts); known once started. */
  get browserContainmentKind(): ContainmentKind | undefined {
    return this.containment?.kind;
  }

  /** What went through the egress proxy: the pages' requests and tunnels, refused and failed. */
  get egressProxyCounters(): Readonly<EgressProxyCounters> {
    return this.proxy.counters;
  }

  /** Chromium's own (non-page) requests refused so far, and the first hosts they were for. */
  get refusedBrowserTraffic(): { count: number; hosts: readonly string[] } {
    return this.browserTrafficRefuser.refused;
  }

  /** Profiles an earlier run left under `profileRoot`, removed at start. */
  get sweptProfileCount(): number {
    return this.profiles?.sweptCount ?? 0;
  }

  /** Renders (or plainly fetches) one URL. Never rejects for page-level problems. */
  render(request: RenderRequest): Promise<RenderOutcome> {
    if (this.pool === undefined || this.isStopping) {
      return Promise.reject(new Error('RenderEngine is not running'));
    }
    const rendering = this.renderCounted(request);
    this.inFlight.add(rendering);
    void rendering.finally(() => this.inFlight.delete(rendering));
    return rendering;
  }

  /**
   * Whether `selector` is valid CSS as Chromium reads it. The gateway asks before robots.txt or a
   * rate-limit slot is touched, so an invalid wait_selector costs the origin nothing. Answers true
   * when no page can be had (the render itself then reports the problem).
   */
  async isValidWaitSelector(selector: string): Promise<boolean> {
    const known = this.waitSelectors.known(selector);
    if (known !== undefined) return known;
    if (this.pool === undefined || this.isStopping) return true;
    let pooled: PooledPage;
    try {
      pooled = await this.pool.acquire();
    } catch {
      return true;
    }
    let isReusable = false;
    try {
      const isValid = await this.waitSelectors.check(pooled.session, selector);
      isReusable = true;
      return isValid;
    } catch {
      return true;
    } finally {
      await this.pool.release(pooled, isReusable);
    }
  }

  get freePageCount(): number {
    return this.pool?.slots.availableCount ?? 0;
  }

  statistics(): RenderEngineStatistics {
    return {
      concurrency: this.concurrency,
      busyPageCount: this.pool?.busyCount ?? 0,
      freePageCount: this.freePageCount,
      queuedRenderCount: this.queuedRenderCount,
      browserLaunchCount: this.pool?.browserLaunchCount ?? 0,
      browserLossCount: this.browserLossCount,
      outcomeCounts: { ...this.outcomeCounts },
    };
  }

  /** Process id of the current Chromium (operations; tests kill it to simulate a crash). */
  browserProcessId(): number | undefined {
    return this.pool?.browserProcessId;
  }

  private async renderCounted(request: RenderRequest): Promise<RenderOutcome> {
    const timing = { queueWaitMs: 0, startedAtMs: Date.now() };
    const outcome = await this.renderOrFetch(request, timing);
    const key = outcomeCountKey(outcome);
    this.outcomeCounts[key] = (this.outcomeCounts[key] ?? 0) + 1;
    this.options.observer?.renderFinished?.({
      outcome,
      isRendered: request.shouldRender,
      queueWaitMs: timing.queueWaitMs,
      durationMs: Date.now() - timing.startedAtMs,
    });
    return outcome;
  }

  private async renderOrFetch(
    request: RenderRequest,
    timing: { queueWaitMs: number; startedAtMs: number },
  ): Promise<RenderOutcome> {
    let url: string;
    try {
      url = normalizeUrl(request.url);
    } catch (error) {
      if (error instanceof UrlNormalizationError) {
        return refusedOutcome(error.reason, error.message);
      }
      throw error;
    }
    if (!request.shouldRender) {
      return fetchWithoutRendering(url, request, {
        resolver: this.resolver,
        userAgent: this.userAgent,
        maxBodyBytes: this.maxContentBytes,
        maxRedirectCount: this.options.maxRedirectCount ?? 5,
      });
    }
    // Refusals and DNS failures are known before a page is taken (the proxy checks again later).
    try {
      await this.resolver.resolve(new URL(url).hostname);
    } catch (error) {
      if (error instanceof EgressError) return outcomeOfEgressError(error, new Date());
      throw error;
    }
    const pool = this.pool as PagePool;
    let pooled: PooledPage;
    this.queuedRenderCount += 1;
    try {
      pooled = await pool.acquire();
    } catch (error) {
      return failedOutcome('browser_crashed', `no browser available: ${String(error)}`, new Date());
    } finally {
      this.queuedRenderCount -= 1;
      timing.queueWaitMs = Date.now() - timing.startedAtMs;
      timing.startedAtMs = Date.now();
    }
    const waitSelector = request.waitSelector?.trim() || null;
    const task: PageRenderTask = {
      url,
      waitSelector,
      timeoutMs: request.timeoutMs,
      validators:
        request.etag || request.lastModifiedAt
          ? {
              ifNoneMatch: request.etag ?? undefined,
              ifModifiedSince: contractTimeToHttpDate(request.lastModifiedAt),
            }
          : undefined,
      sentValidators: { etag: request.etag, lastModifiedAt: request.lastModifiedAt },
      onDispatch: request.onDispatch,
      onOriginAnswered: request.onOriginAnswered,
    };
    let isReusable = false;
    let hasFailed = false;
    try {
      if (
        waitSelector !== null &&
        !(await this.waitSelectors.check(pooled.session, waitSelector))
      ) {
        isReusable = true;
        return invalidSelectorOutcome(waitSelector);
      }
      const guarded = await this.renderGuarded(pooled, task);
      isReusable = guarded.isPageReusable;
      hasFailed = guarded.outcome.kind === 'failed';
      return guarded.outcome;
    } finally {
      // A failed render (a timeout, say) may leave a document still loading and calling its
      // origin: it goes to about:blank before the page is free, not after the idle delay.
      await pool.release(pooled, isReusable, { shouldResetAtOnce: hasFailed });
    }
  }

  /**
   * Races the render against the browser's death, the page's crash and a hard time limit, so a
   * render in flight when Chromium dies fails at once with browser_crashed instead of hanging.
   */
  private async renderGuarded(
    pooled: PooledPage,
    task: PageRenderTask,
  ): Promise<{ outcome: RenderOutcome; isPageReusable: boolean }> {
    const watch = watchForCrash(pooled);
    const hardLimit = delay(task.timeoutMs + HARD_LIMIT_GRACE_MS);
    const rendering = renderOnPage(pooled, task, this.renderSettings).then(
      (outcome) => ({ outcome }),
      (error: unknown) => ({ error }),
    );
    const winner = await Promise.race([
      rendering,
      watch.crashed.then(() => 'crashed' as const),
      hardLimit.promise.then(() => 'hung' as const),
    ]);
    hardLimit.cancel();
    watch.dispose();
    const crashOutcome = (detail: string) => ({
      outcome: failedOutcome('browser_crashed', detail, new Date()),
      isPageReusable: false,
    });
    if (winner === 'crashed') {
      return crashOutcome('the browser or the page crashed during the render');
    }
    if (winner === 'hung') {
      return {
        outcome: failedOutcome(
          'navigation_timeout',
          `page unresponsive after ${task.timeoutMs} ms`,
          new Date(),
        ),
        isPageReusable: false,
      };
    }
    if ('error' in winner) {
      // Not a page-level failure: the browser or the protocol misbehaved. Treat the page as broken.
      return crashOutcome(`render aborted: ${String(winner.error)}`);
    }
    const hasCrashed = watch.hasCrashed() || pooled.generation.isLost;
    if (winner.outcome.kind === 'failed' && hasCrashed) {
      return crashOutcome(`the browser died during the render (${winner.outcome.message})`);
    }
    return { outcome: winner.outcome, isPageReusable: !hasCrashed };
  }
}
