import type { CDPSession, HTTPResponse, Page } from 'puppeteer-core';
import { BLOCKED_URL_PATTERNS } from '../../services/downloader/rendering/blocked-resources';
import { NetworkLogRecorder } from '../../services/downloader/rendering/network-log-recorder';
import { waitForPageToSettle } from '../../services/downloader/rendering/page-settle-wait';
import { takePageSnapshot } from '../../services/downloader/rendering/page-snapshot';
import {
  pendingTimerTrackerSource,
  readNextPendingWork,
} from '../../services/downloader/rendering/pending-timer-tracker';
import {
  QUIET_WINDOW_CAP_MS,
  QUIET_WINDOW_MS,
  RENDER_TIMEOUT_MS,
  SETTLE_MS,
  WAIT_SELECTOR,
} from './bench-settings';
import type { RenderResult } from './page-record';
import { answeredXhrUrls } from './web-page-result';

/**
 * A page prepared the way the engine prepares its pages (browser-generation.ts): a CDP session
 * with the Network and Runtime domains on, fonts/media/images blocked through
 * Network.setBlockedURLs (never request interception) and the engine's pending-timer tracker in
 * every new document (for its page-complete rule).
 */
export interface InstrumentedPage {
  readonly page: Page;
  readonly session: CDPSession;
  readonly mainFrameId: string;
}

export async function instrumentPage(page: Page): Promise<InstrumentedPage> {
  const session = await page.createCDPSession();
  const [{ frameTree }] = await Promise.all([
    session.send('Page.getFrameTree'),
    session.send('Network.enable'),
    session.send('Network.setBlockedURLs', { urlPatterns: BLOCKED_URL_PATTERNS }),
    session.send('Runtime.enable'),
    page.evaluateOnNewDocument(pendingTimerTrackerSource(QUIET_WINDOW_CAP_MS)),
  ]);
  return { page, session, mainFrameId: frameTree.frame.id };
}

/** Starts the engine's network recorder for one navigation; call before `goto`. */
export function startRecording(instrumented: InstrumentedPage): NetworkLogRecorder {
  const recorder = new NetworkLogRecorder(instrumented.session, instrumented.mainFrameId);
  recorder.start();
  return recorder;
}

/**
 * After the navigation: the engine's wait condition (wait selector, then its page-complete rule,
 * with the engine's own code) and its snapshot script (HTML, text, links with landmarks), so the
 * peers do the same work per page as the engine. Stops the recorder.
 */
export async function finishRender(
  instrumented: InstrumentedPage,
  recorder: NetworkLogRecorder,
  response: HTTPResponse | null,
  startedAtMs: number,
): Promise<RenderResult> {
  try {
    const status = response?.status();
    if (status === undefined || status >= 400) {
      return { isSuccess: false, failure: `main document answered ${status ?? 'nothing'}` };
    }
    const remainingMs = () => Math.max(0, startedAtMs + RENDER_TIMEOUT_MS - Date.now());
    await instrumented.page.waitForSelector(WAIT_SELECTOR, { timeout: remainingMs() });
    await waitForPageToSettle(recorder, () => readNextPendingWork(instrumented.session), {
      settleMs: SETTLE_MS,
      quietWindowMs: QUIET_WINDOW_MS,
      capMs: Math.min(QUIET_WINDOW_CAP_MS, remainingMs()),
    });
    const snapshot = await takePageSnapshot(instrumented.session, WAIT_SELECTOR, {
      maxHtmlCharacterCount: 10 * 1024 * 1024,
      maxLinkCount: 5000,
    });
    return {
      isSuccess: true,
      xhrUrls: answeredXhrUrls(recorder.networkLog),
      linkCount: snapshot.links.length,
    };
  } finally {
    recorder.stop();
  }
}
