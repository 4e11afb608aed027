import type { CDPSession } from 'puppeteer-core';

/*
 * RENDERER_HEAP_NOTE — why a returned page sometimes has its renderer collected. A pooled page
 * goes from one URL to the next in a renderer process it shares with other pages (four on
 * 2 cores at 16 pages), and the documents it leaves stay in that process's heaps until V8 runs
 * a full collection: a renderer of the bench's bare loop held 135 documents for its 4 pages and
 * 51 MB of V8 + DOM heap (Runtime.getHeapUsage, Memory.getDOMCounters), and V8 sizes its next
 * collection from a heap that large. Crawlee closes a page after every render, which frees its
 * documents at once: 190 MB PSS for 4 renderers at 16 pages, against 432–498 MB for the reused
 * pages of the bare loop and the downloader (`npm run bench:render -- --contenders
 * service,crawlee,bare --bare-sweep 16 --rounds 1 --pages 360 --many-domain-hosts 0
 * --api-pages 0`, 2026-12-04, 2 cores). Closing every page costs a third of the throughput
 * (15.2 vs 23.2 pages/s in the bare loop). A full collection when a renderer's heaps pass a
 * threshold costs almost nothing: in the bare loop at 16 pages over 600 bench pages, collected
 * above 24 MB, the renderers peaked at 247 MB instead of 468 at 23.6 vs 24.4 pages/s and 78 vs
 * 76 ms CPU per page — 6 collections of ~200 ms each, after which V8 sizes the heap from what
 * is actually alive. (Collecting every 16th render: 236 MB, 39 collections, −3 % pages/s.)
 */

const MEBIBYTE = 1024 * 1024;

export interface RendererHeapReclaimSettings {
  /**
   * A renderer whose V8 and DOM (Oilpan) heaps together use more than this is collected when one
   * of its pages is returned; 0: never.
   */
  readonly thresholdBytes: number;
  /** A page asks for its renderer's heap size at most this often (one CDP round trip). */
  readonly checkIntervalMs: number;
  /**
   * After a collection, the next one waits until the heap is this many times what was left alive
   * (or the threshold, whichever is more): a page whose live heap is large is not collected on
   * every check for nothing.
   */
  readonly liveHeapGrowthFactor: number;
  /**
   * A check and collection not done by then are no longer waited for (a renderer whose main
   * thread another page keeps busy answers late): the page is taken or reset without it.
   */
  readonly waitLimitMs: number;
}

export const DEFAULT_RENDERER_HEAP_RECLAIM: RendererHeapReclaimSettings = {
  thresholdBytes: 24 * MEBIBYTE,
  checkIntervalMs: 1000,
  liveHeapGrowthFactor: 2,
  waitLimitMs: 2000,
};

/** One collection, for metrics and logs. */
export interface RendererHeapCollection {
  readonly heapBytesBefore: number;
  readonly heapBytesAfter: number;
  readonly durationMs: number;
}

/** Runtime.getHeapUsage's answer; `embedderHeapUsedSize` (Oilpan: the DOM) is newer than types. */
interface HeapUsage {
  readonly usedSize: number;
  readonly embedderHeapUsedSize?: number;
}

async function heapBytesOf(session: CDPSession): Promise<number> {
  const usage = (await session.send('Runtime.getHeapUsage')) as HeapUsage;
  return usage.usedSize + (usage.embedderHeapUsedSize ?? 0);
}

interface SessionState {
  lastCheckAtMs: number;
  /** Heap bytes left after this session's last collection (0: none yet). */
  liveBytes: number;
}

/**
 * Decides, when a page comes back to the pool, whether its renderer's heaps are worth a full
 * collection (RENDERER_HEAP_NOTE), and runs it. The heap is per renderer process, shared by the
 * pages in it; a page is checked at most once per `checkIntervalMs`, so a process is looked at a
 * few times a second at most, at the cost of one CDP round trip per check.
 */
export class RendererHeapReclaimer {
  private readonly sessions = new WeakMap<CDPSession, SessionState>();

  constructor(
    private readonly settings: RendererHeapReclaimSettings = DEFAULT_RENDERER_HEAP_RECLAIM,
    private readonly collected: (collection: RendererHeapCollection) => void = () => undefined,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /**
   * The check (and the collection it calls for) for a page just returned, or undefined when the
   * page is not due. Never rejects: a page whose session fails here fails its next render, which
   * handles that.
   */
  reclaimIfDue(session: CDPSession): Promise<void> | undefined {
    if (this.settings.thresholdBytes <= 0) return undefined;
    const now = this.nowMs();
    let state = this.sessions.get(session);
    if (state === undefined) {
      state = { lastCheckAtMs: now, liveBytes: 0 };
      this.sessions.set(session, state);
    } else if (now - state.lastCheckAtMs < this.settings.checkIntervalMs) {
      return undefined;
    } else {
      state.lastCheckAtMs = now;
    }
    let timer: NodeJS.Timeout | undefined;
    const waitLimit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.settings.waitLimitMs);
    });
    const work = this.checkAndCollect(session, state).catch(() => undefined);
    return Promise.race([work, waitLimit]).finally(() => clearTimeout(timer));
  }

  private async checkAndCollect(session: CDPSession, state: SessionState): Promise<void> {
    const heapBytesBefore = await heapBytesOf(session);
    const limit = Math.max(
      this.settings.thresholdBytes,
      state.liveBytes * this.settings.liveHeapGrowthFactor,
    );
    if (heapBytesBefore <= limit) return;
    const startedAtMs = this.nowMs();
    await session.send('HeapProfiler.collectGarbage');
    const heapBytesAfter = await heapBytesOf(session);
    state.liveBytes = heapBytesAfter;
    this.collected({ heapBytesBefore, heapBytesAfter, durationMs: this.nowMs() - startedAtMs });
  }
}
