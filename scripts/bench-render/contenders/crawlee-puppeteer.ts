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
  MAX_BENCH_CONCURRENCY,
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
 * Crawlee's autoscaled pool at its best (pitfalls.md: it budgets 25 % of RAM, autoscales slowly
 * from its minimum and fingerprints by default). What was changed from its defaults, and why:
 *  - it starts at 4 pages (twice the cores, as the downloader does) instead of its minimum, and
 *    may scale between 1 and 16 (the downloader's brake in the bench);
 *  - it decides every 2 s instead of every 10 s, steps ±20 % instead of ±5 %, and reads the
 *    system every 0.5 s over the last 3 s instead of 1 s over 5 s — so it reaches its best
 *    concurrency within the run instead of after it;
 *  - memory: half the RAM instead of a quarter, so only the CPU can hold it back;
 *  - fingerprints off, no session pool or cookie persistence, no retries, in-memory storage purged
 *    at start in a temporary directory, the engine's browser recycling count.
 * The same Chromium binary and flags and the same per-page work as the engine (blocking, wait
 * selector, page-complete rule, snapshot — instrumented-page.ts). Crawlee opens a new page per
 * request: that is how it works, and part of what is measured. Its concurrency over the run is
 * reported.
 */
export const runCrawleePuppeteer: RunContender = async (job, onRecord) => {
  log.setLevel(log.LEVELS.WARNING);
  const storageDirectory = await mkdtemp(join(tmpdir(), 'bench-render-crawlee-'));
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    headless: true,
    availableMemoryRatio: 0.5,
    systemInfoIntervalMillis: 500,
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
      minConcurrency: 1,
      maxConcurrency: MAX_BENCH_CONCURRENCY,
      autoscaledPoolOptions: {
        desiredConcurrency: 4,
        autoscaleIntervalSecs: 2,
        scaleUpStepRatio: 0.2,
        scaleDownStepRatio: 0.2,
        loggingIntervalSecs: null,
        systemStatusOptions: { currentHistorySecs: 3 },
      },
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
  const concurrencySeen: number[] = [];
  const watch = setInterval(() => {
    const desired = crawler.autoscaledPool?.desiredConcurrency;
    if (desired !== undefined) concurrencySeen.push(desired);
  }, 1000);
  try {
    await crawler.run([...job.urls]);
  } finally {
    clearInterval(watch);
    await crawler.teardown().catch(() => undefined);
    await rm(storageDirectory, { recursive: true, force: true });
  }
  return concurrencySeen.length === 0
    ? []
    : [
        `autoscaled desired concurrency over the run: ${concurrencySeen.join(' ')} ` +
          `(started at 4, bounds 1–${MAX_BENCH_CONCURRENCY})`,
      ];
};
