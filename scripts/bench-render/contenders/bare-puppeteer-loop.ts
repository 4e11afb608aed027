import puppeteer from 'puppeteer-core';
import { RENDER_TIMEOUT_MS } from '../bench-settings';
import {
  finishRender,
  InstrumentedPage,
  instrumentPage,
  startRecording,
} from '../instrumented-page';
import { peerLaunchOptions } from '../peer-browser-launch';
import { renderUrlStream } from '../page-stream';
import type { RunContender } from './contender-job';

/**
 * The ceiling: plain puppeteer with nothing around it — one browser, one reused page per worker
 * (the fastest strategy known, pitfalls.md), no proxy, no pool bookkeeping, no page object. It
 * does the same per-page work as the engine (same blocking, wait and snapshot code).
 */
export const runBarePuppeteerLoop: RunContender = async (job, onRecord) => {
  const browser = await puppeteer.launch(peerLaunchOptions(job.hosts));
  try {
    const freePages: InstrumentedPage[] = await Promise.all(
      Array.from({ length: job.concurrency }, async () => instrumentPage(await browser.newPage())),
    );
    const renderOne = async (url: string) => {
      // One page per worker: the stack is never empty here.
      const instrumented = freePages.pop() as InstrumentedPage;
      try {
        const startedAtMs = Date.now();
        const recorder = startRecording(instrumented);
        const response = await instrumented.page
          .goto(url, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS })
          .catch((error: unknown) => {
            recorder.stop();
            throw error;
          });
        return { result: await finishRender(instrumented, recorder, response, startedAtMs) };
      } finally {
        freePages.push(instrumented);
      }
    };
    await renderUrlStream(job.urls, job.concurrency, renderOne, onRecord);
  } finally {
    await browser.close();
  }
};
