import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Configuration,
  log,
  PuppeteerCrawler,
  PuppeteerCrawlerOptions,
  PuppeteerCrawlingContext,
} from 'crawlee';
import puppeteer from 'puppeteer';
import type { Page } from 'puppeteer-core';
import type { NetworkLogRecorder } from '../../../services/downloader/rendering/network-log-recorder';
import {
  BENCH_CONCURRENCY,
  RECYCLE_AFTER_RENDER_COUNT,
  RENDER_TIMEOUT_MS,
} from '../bench-settings';
import {
  finishRender,
  InstrumentedPage,
  instrumentPage,
  startRecording,
} from '../instrumented-page';
import { failureResult, PageRecord, RenderResult } from '../page-record';
import { peerLaunchOptions } from '../peer-browser-launch';
import type { RunContender } from './contender-job';

interface PageInFlight {
  readonly instrumented: InstrumentedPage;
  readonly recorder: NetworkLogRecorder;
  readonly startedAtMs: number;
}

/**
 * Times each request the way the issue asks — from the start of Crawlee's per-request work (it
 * opens a new page here) to the end of the request handler — and reports it as a page record.
 */
class TimedPuppeteerCrawler extends PuppeteerCrawler {
  constructor(
    options: PuppeteerCrawlerOptions,
    config: Configuration,
    private readonly results: Map<string, RenderResult>,
    private readonly onRecord: (record: PageRecord) => void,
  ) {
    super(options, config);
  }

  protected override async _runRequestHandler(context: PuppeteerCrawlingContext): Promise<void> {
    const startedAtMs = Date.now();
    const url = context.request.url;
    let result: RenderResult | undefined;
    try {
      await super._runRequestHandler(context);
      result = this.results.get(url);
    } catch (error) {
      result = failureResult(error);
      throw error;
    } finally {
      this.results.delete(url);
      this.onRecord({
        url,
        startedAtMs,
        finishedAtMs: Date.now(),
        result: result ?? failureResult('the request handler did not run'),
      });
    }
  }
}

/**
 * Crawlee's PuppeteerCrawler as a peer, configured for a fair comparison (pitfalls.md): the same
 * Chromium binary and flags, fixed concurrency (no autoscaling from 1), fingerprints off, no
 * session pool or cookie persistence, no retries, in-memory storage purged at start in a temporary
 * directory, the engine's browser recycling count, and the same per-page work as the engine
 * (blocking, wait selector, network-quiet wait, snapshot — instrumented-page.ts). Crawlee opens a
 * new page per request: that is how it works, and part of what is measured.
 */
export const runCrawleePuppeteer: RunContender = async (job, onRecord) => {
  log.setLevel(log.LEVELS.WARNING);
  const storageDirectory = await mkdtemp(join(tmpdir(), 'bench-render-crawlee-'));
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    headless: true,
    storageClientOptions: { localDataDirectory: storageDirectory, persistStorage: false },
  });
  const pagesInFlight = new WeakMap<Page, PageInFlight>();
  const results = new Map<string, RenderResult>();
  const crawler = new TimedPuppeteerCrawler(
    {
      launchContext: {
        launcher: puppeteer,
        launchOptions: peerLaunchOptions(job.hosts),
        useChrome: false,
        useIncognitoPages: false,
      },
      browserPoolOptions: {
        useFingerprints: false,
        retireBrowserAfterPageCount: RECYCLE_AFTER_RENDER_COUNT,
      },
      minConcurrency: BENCH_CONCURRENCY,
      maxConcurrency: BENCH_CONCURRENCY,
      autoscaledPoolOptions: { desiredConcurrency: BENCH_CONCURRENCY },
      useSessionPool: false,
      persistCookiesPerSession: false,
      maxRequestRetries: 0,
      navigationTimeoutSecs: RENDER_TIMEOUT_MS / 1000,
      requestHandlerTimeoutSecs: RENDER_TIMEOUT_MS / 1000,
      preNavigationHooks: [
        async ({ page }, gotoOptions) => {
          // The engine navigates with waitUntil 'load' and its render timeout.
          Object.assign(gotoOptions ?? {}, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
          const instrumented = await instrumentPage(page);
          pagesInFlight.set(page, {
            instrumented,
            recorder: startRecording(instrumented),
            startedAtMs: Date.now(),
          });
        },
      ],
      requestHandler: async ({ page, request, response }) => {
        const inFlight = pagesInFlight.get(page);
        if (inFlight === undefined) throw new Error('page was not instrumented');
        results.set(
          request.url,
          await finishRender(
            inFlight.instrumented,
            inFlight.recorder,
            response ?? null,
            inFlight.startedAtMs,
          ),
        );
      },
      failedRequestHandler: () => undefined,
    },
    config,
    results,
    onRecord,
  );
  try {
    await crawler.run([...job.urls]);
  } finally {
    await crawler.teardown().catch(() => undefined);
    await rm(storageDirectory, { recursive: true, force: true });
  }
};
