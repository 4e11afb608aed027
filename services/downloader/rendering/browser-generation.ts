import type { ChildProcess } from 'node:child_process';
import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer-core';
import { BLOCKED_URL_PATTERNS } from './blocked-resources';
import { launchBrowser, type BrowserLaunchSettings } from './browser-launch';
import { LOOPBACK_NOT_BYPASSED } from './chromium-arguments';
import type { RendererHeapReclaimer } from './renderer-heap-reclaim';
import { networkEnableParameters } from './response-body-buffer';

export type { BrowserLaunchSettings } from './browser-launch';

const KILL_WAIT_MS = 2000;

async function killAndWait(child: ChildProcess | null): Promise<void> {
  if (child === null || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, KILL_WAIT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  child.kill('SIGKILL');
  await exited;
}

/**
 * A page left idle this long is sent to about:blank: the old document's timers and pollers stop,
 * so no traffic reaches an origin outside the politeness layer's control. A page reused sooner
 * goes straight to its next URL (an extra about:blank navigation per render cost ~10 % of
 * throughput); the recorders tell the previous document's stray events apart instead.
 */
const IDLE_RESET_DELAY_MS = 500;
const IDLE_RESET_TIMEOUT_MS = 3000;

interface IdlePage {
  readonly pooled: PooledPage;
  timer?: NodeJS.Timeout;
  /**
   * The heap collection of its renderer started when it came back (renderer-heap-reclaim.ts),
   * until it ends: meanwhile the page is taken only when no other idle page is free.
   */
  reclaim?: Promise<void>;
  /** Set once the idle reset started; false when it failed (the page is then discarded). */
  reset?: Promise<boolean>;
}

/** A page of the pool with the CDP session the recorders listen on. */
export interface PooledPage {
  readonly page: Page;
  readonly session: CDPSession;
  readonly mainFrameId: string;
  readonly generation: BrowserGeneration;
}

/** A render's view of "the browser or this page's renderer died"; dispose() when the render ends. */
export interface CrashWatch {
  readonly crashed: Promise<void>;
  hasCrashed(): boolean;
  dispose(): void;
}

/**
 * Watches one render's page and browser. Listeners are per render and removed afterwards, so a
 * long-lived page doesn't accumulate one reaction per render it ever served.
 */
export function watchForCrash(pooled: PooledPage): CrashWatch {
  let hasCrashed = pooled.generation.isLost;
  let signal: () => void = () => undefined;
  const crashed = new Promise<void>((resolve) => {
    signal = () => {
      hasCrashed = true;
      resolve();
    };
  });
  if (hasCrashed) signal();
  pooled.page.on('error', signal); // renderer crash ("Page crashed!")
  pooled.generation.browser.on('disconnected', signal);
  return {
    crashed,
    hasCrashed: () => hasCrashed,
    dispose: () => {
      pooled.page.off('error', signal);
      pooled.generation.browser.off('disconnected', signal);
    },
  };
}

/**
 * One launched Chromium and the pages created in it. A generation is replaced after a number of
 * renders (memory and state accumulate in a long-lived browser) or when it dies; `lost` lets every
 * render in flight notice a dead browser at once instead of waiting for its own timeout.
 */
export class BrowserGeneration {
  /** Resolves when the browser disconnects: crash, kill, or our own close. */
  readonly lost: Promise<void>;
  isLost = false;
  /** Set once the generation handed out its share of renders: it takes no more work. */
  isRetiring = false;
  handedOutCount = 0;
  /** Set by close(): a disconnect after this is ours, not a crash. */
  isClosing = false;
  busyCount = 0;
  private readonly idlePages: IdlePage[] = [];
  private userAgent = '';
  /**
   * Where every page is created: a browser context whose proxy is the egress proxy. Chromium's own
   * traffic stays with the browser-wide proxy, which refuses it (chromium-arguments.ts).
   */
  private pageContext: BrowserContext | undefined;

  private constructor(
    readonly browser: Browser,
    readonly sequenceNumber: number,
    private readonly settings: BrowserLaunchSettings,
    /** Removed once the browser closed (a killed downloader's profiles are swept at start). */
    readonly profileDirectory: string,
  ) {
    this.lost = new Promise((resolve) => {
      browser.once('disconnected', () => {
        this.isLost = true;
        resolve();
      });
    });
  }

  static async launch(
    settings: BrowserLaunchSettings,
    sequenceNumber: number,
  ): Promise<BrowserGeneration> {
    const { browser, profileDirectory } = await launchBrowser(settings);
    const generation = new BrowserGeneration(browser, sequenceNumber, settings, profileDirectory);
    try {
      generation.userAgent = `${await browser.userAgent()} ${settings.crawlerUserAgent}`;
      generation.pageContext = await browser.createBrowserContext({
        proxyServer: settings.pageProxyUrl,
        proxyBypassList: [LOOPBACK_NOT_BYPASSED],
      });
      // The launch's initial about:blank tab lives in the default context, where no page renders:
      // closed, it keeps no renderer process (~40 MB) alive for nothing.
      for (const initialTab of await browser.defaultBrowserContext().pages()) {
        await initialTab.close();
      }
    } catch (error) {
      await generation.close();
      throw error;
    }
    return generation;
  }

  /**
   * Process id of the launched command: Chromium itself, or the containment's `unshare` whose
   * death takes Chromium's whole PID namespace with it (tests kill it to simulate a crash).
   */
  get processId(): number | undefined {
    return this.browser.process()?.pid;
  }

  /** Pages of this browser: idle and busy. */
  get pageCount(): number {
    return this.idlePages.length + this.busyCount;
  }

  /**
   * Creates `count` idle pages up front, so the first renders after a launch, a recycle or a
   * growing pool don't each pay for page creation and set-up.
   */
  async openIdlePages(count: number): Promise<void> {
    const pages = await Promise.all(
      Array.from({ length: Math.max(0, count) }, () => this.createPage()),
    );
    // Idle pages at the bottom of the stack: recently used (warm) pages are taken first.
    this.idlePages.unshift(...pages.map((pooled) => ({ pooled })));
  }

  /** Closes idle pages, least recently used first, until at most `pageCount` pages are left. */
  async closeIdlePagesBeyond(pageCount: number): Promise<void> {
    const closing: Array<Promise<void>> = [];
    while (this.pageCount > pageCount && this.idlePages.length > 0) {
      const idle = this.idlePages.shift() as IdlePage;
      clearTimeout(idle.timer);
      closing.push(idle.pooled.page.close().catch(() => undefined));
    }
    await Promise.all(closing);
  }

  /**
   * The most recently used idle page whose renderer is not being collected (any page when all
   * are), once its reset or collection, if one started, finished; or a new page.
   */
  async takePage(): Promise<PooledPage> {
    this.handedOutCount += 1;
    this.busyCount += 1;
    try {
      for (let idle = this.popIdlePage(); idle !== undefined; idle = this.popIdlePage()) {
        clearTimeout(idle.timer);
        await idle.reclaim;
        if (idle.pooled.page.isClosed()) continue; // its renderer crashed while idle
        if (idle.reset === undefined || (await idle.reset)) return idle.pooled;
        await idle.pooled.page.close().catch(() => undefined);
      }
      return await this.createPage();
    } catch (error) {
      this.busyCount -= 1;
      throw error;
    }
  }

  /**
   * Back to the idle list, or closed when it can't be trusted any more. A reusable page may have
   * its renderer's heaps collected first (`reclaimer`), in the background: the page is idle
   * meanwhile, and taken only when no other idle page is free.
   */
  async returnPage(
    pooled: PooledPage,
    isReusable: boolean,
    shouldResetAtOnce = false,
    reclaimer?: RendererHeapReclaimer,
  ): Promise<void> {
    this.busyCount -= 1;
    if (isReusable && !this.isLost && !this.isRetiring) {
      const idle: IdlePage = { pooled };
      const reset = () => {
        idle.reset = (idle.reclaim ?? Promise.resolve())
          .then(() => pooled.page.goto('about:blank', { timeout: IDLE_RESET_TIMEOUT_MS }))
          .then(
            () => true,
            () => false,
          );
      };
      if (shouldResetAtOnce) {
        reset();
        this.idlePages.push(idle);
        await idle.reset;
        return;
      }
      idle.reclaim = reclaimer?.reclaimIfDue(pooled.session)?.finally(() => {
        idle.reclaim = undefined;
      });
      idle.timer = setTimeout(reset, IDLE_RESET_DELAY_MS);
      this.idlePages.push(idle);
      return;
    }
    await pooled.page.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.isClosing = true;
    this.isRetiring = true;
    for (const idle of this.idlePages) clearTimeout(idle.timer);
    // close() also reaps the process; a browser that does not answer is killed (and awaited, so
    // its profile is not removed under a process still writing to it).
    await this.browser.close().catch(() => killAndWait(this.browser.process()));
    await this.settings.profiles.remove(this.profileDirectory);
  }

  /** Removes and returns the newest idle page not being collected, else the newest one. */
  private popIdlePage(): IdlePage | undefined {
    for (let index = this.idlePages.length - 1; index >= 0; index -= 1) {
      if (this.idlePages[index].reclaim === undefined) {
        return this.idlePages.splice(index, 1)[0];
      }
    }
    return this.idlePages.pop();
  }

  private async createPage(): Promise<PooledPage> {
    if (this.pageContext === undefined) throw new Error('browser generation not launched');
    const page = await this.pageContext.newPage();
    // A renderer that crashes leaves a page that can't navigate: close it so no render gets it.
    page.once('error', () => void page.close().catch(() => undefined));
    // alert()/confirm()/prompt() would block the page's scripts (and our snapshot) until answered.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
    // A popup is a page nobody renders or watches: close it at once.
    page.on('popup', (popup) => void popup?.close().catch(() => undefined));
    const session = await page.createCDPSession();
    const [{ frameTree }] = await Promise.all([
      session.send('Page.getFrameTree'),
      session.send('Network.enable', networkEnableParameters(this.settings.isResponseBodyRead)),
      session.send('Network.setBlockedURLs', { urlPatterns: BLOCKED_URL_PATTERNS }),
      session.send('Runtime.enable'),
      // On our session: puppeteer's page.setUserAgent needs its (disabled) network tracking.
      session.send('Network.setUserAgentOverride', { userAgent: this.userAgent }),
      // Through puppeteer's own session: the Page domain is enabled there (not on ours).
      this.settings.newDocumentScript === undefined
        ? undefined
        : page.evaluateOnNewDocument(this.settings.newDocumentScript),
    ]);
    return { page, session, mainFrameId: frameTree.frame.id, generation: this };
  }
}
