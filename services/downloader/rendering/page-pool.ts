import { BrowserGeneration, BrowserLaunchSettings, PooledPage } from './browser-generation';
import { CountingSemaphore } from './counting-semaphore';
import type { RendererHeapReclaimer } from './renderer-heap-reclaim';

/**
 * Renders a browser takes before it is replaced, by default. A replacement is a Chromium launch
 * with its pages and a cold start of every cache, and renders meanwhile are slower; at 200 (the old
 * default) a crawl at ~11 pages/s paid one every 18 s. 3 hosts at min_interval_ms 200 then ran at
 * 0.64–0.73 of what the rules allowed (five runs), at 1000 at 0.79–0.83 (five runs; `npm run
 * bench:crawl`, 2026-12-01, before the renderer process limit); a 10-minute soak at 1000 kept its
 * RSS within 5.5 % of the median (`npm run soak:render`).
 */
export const DEFAULT_RECYCLE_AFTER_RENDER_COUNT = 1000;

export interface PagePoolEvents {
  browserStarted?(generation: BrowserGeneration): void;
  browserLost?(generation: BrowserGeneration): void;
}

export interface PagePoolOptions {
  /** Pages rendering at once at the start; `resize` changes it while running. */
  readonly size: number;
  /** A browser takes this many renders, then is replaced once its last render finished. */
  readonly recycleAfterRenderCount: number;
  readonly launchSettings: BrowserLaunchSettings;
  readonly events?: PagePoolEvents;
  /** Collects a returned page's renderer when its heaps grew (renderer-heap-reclaim.ts). */
  readonly heapReclaimer?: RendererHeapReclaimer;
}

/**
 * A bounded pool of reused pages in one long-lived Chromium (reusing a page is ~2× faster than a
 * fresh page per URL, ~7× faster than a fresh context: pitfalls.md).
 *
 * - `size` slots; a render holds one slot and one page. `resize` changes the size while running
 *   (pool-sizing/): growing opens the new pages at once, in the background; shrinking closes
 *   idle pages at once and busy ones as their renders return — no render is interrupted.
 * - Recycling: a browser takes `recycleAfterRenderCount` renders. Its successor is launched (with
 *   its pages) while it serves the last `concurrency` of them; new work then goes to the successor
 *   and the old browser closes when its last render returned. No render is interrupted, none waits
 *   for a drain, and normally none waits for a launch.
 * - Crash: a lost browser is dropped at once (renders in flight see the disconnect through their
 *   crash watch), and a new one is launched in the background.
 */
export class PagePool {
  readonly slots: CountingSemaphore;
  private current: BrowserGeneration | undefined;
  private launching: Promise<BrowserGeneration> | undefined;
  private readonly generations = new Set<BrowserGeneration>();
  private launchCount = 0;
  private releasedCount = 0;
  private isClosed = false;

  constructor(private readonly options: PagePoolOptions) {
    this.slots = new CountingSemaphore(options.size);
  }

  /** Pages that may render at once now. */
  get size(): number {
    return this.slots.permitCount;
  }

  /** Renders holding a page now. */
  get busyCount(): number {
    return this.slots.holderCount;
  }

  /** Renders waiting for a page now. */
  get waitingCount(): number {
    return this.slots.waitingCount;
  }

  /** Renders that returned their page so far (the sizer's pages/s). */
  get completedCount(): number {
    return this.releasedCount;
  }

  /** Changes how many pages render at once (see the class comment). */
  resize(size: number): void {
    const previousSize = this.size;
    this.slots.resize(size);
    const current = this.current;
    if (current === undefined || current.isLost || current.isRetiring || this.isClosed) return;
    if (size > previousSize) {
      // A failed page creation shows up again when a render takes a page.
      void current.openIdlePages(size - current.pageCount).catch(() => undefined);
    } else {
      void current.closeIdlePagesBeyond(size);
    }
  }

  get browserLaunchCount(): number {
    return this.launchCount;
  }

  /** The current browser's process id (tests use it to kill the browser). */
  get browserProcessId(): number | undefined {
    return this.current?.processId;
  }

  /** Launches the first browser now, so a broken setup fails at start, not at the first render. */
  async warmUp(): Promise<void> {
    await this.currentGeneration();
  }

  /** Waits for a free slot, then returns a page of the current browser. */
  async acquire(): Promise<PooledPage> {
    await this.slots.acquire();
    try {
      if (this.isClosed) throw new Error('page pool is closed');
      const generation = await this.currentGeneration();
      return await generation.takePage();
    } catch (error) {
      this.slots.release();
      throw error;
    }
  }

  /**
   * Returns the page and its slot. `isReusable` false closes the page (hung or crashed); so does a
   * page beyond the size after the pool shrank.
   */
  async release(
    pooled: PooledPage,
    isReusable: boolean,
    options: { readonly shouldResetAtOnce?: boolean } = {},
  ): Promise<void> {
    const generation = pooled.generation;
    try {
      await generation.returnPage(
        pooled,
        isReusable && generation.pageCount <= this.size,
        options.shouldResetAtOnce === true,
        this.options.heapReclaimer,
      );
      if ((generation.isRetiring || generation.isLost) && generation.busyCount === 0) {
        await this.retire(generation);
      }
    } finally {
      this.releasedCount += 1;
      this.slots.release();
    }
  }

  async close(): Promise<void> {
    this.isClosed = true;
    await this.launching?.catch(() => undefined);
    await Promise.all([...this.generations].map((generation) => this.retire(generation)));
  }

  private async currentGeneration(): Promise<BrowserGeneration> {
    const current = this.current;
    const { recycleAfterRenderCount } = this.options;
    if (
      current !== undefined &&
      !current.isLost &&
      current.handedOutCount < recycleAfterRenderCount
    ) {
      // Close to its share: start the successor now, so no render waits for a launch.
      if (current.handedOutCount >= recycleAfterRenderCount - this.size) {
        void this.launchSuccessor().catch(() => undefined);
      }
      return current;
    }
    return this.launchSuccessor();
  }

  /** One launch at a time; whoever needs a browser meanwhile waits for the same one. */
  private launchSuccessor(): Promise<BrowserGeneration> {
    this.launching ??= this.launch().finally(() => {
      this.launching = undefined;
    });
    return this.launching;
  }

  private async launch(): Promise<BrowserGeneration> {
    this.launchCount += 1;
    const generation = await BrowserGeneration.launch(
      this.options.launchSettings,
      this.launchCount,
    );
    this.generations.add(generation);
    try {
      await generation.openIdlePages(this.size);
    } catch (error) {
      await this.retire(generation);
      throw error;
    }
    const previous = this.current;
    this.current = generation;
    if (previous !== undefined) {
      previous.isRetiring = true; // takes no more work; closes once its renders returned
      if (previous.busyCount === 0) void this.retire(previous);
    }
    this.options.events?.browserStarted?.(generation);
    void generation.lost.then(() => this.onLost(generation));
    if (this.isClosed) await this.retire(generation);
    return generation;
  }

  private onLost(generation: BrowserGeneration): void {
    if (generation.isClosing || this.isClosed) return; // our own close, not a crash
    this.options.events?.browserLost?.(generation);
    if (this.current === generation) this.current = undefined;
    generation.isRetiring = true;
    if (generation.busyCount === 0) void this.retire(generation);
    // Relaunch in the background; a failure here surfaces on the next acquire instead.
    void this.launchSuccessor().catch(() => undefined);
  }

  private async retire(generation: BrowserGeneration): Promise<void> {
    if (!this.generations.delete(generation)) return;
    generation.isRetiring = true;
    await generation.close();
  }
}
