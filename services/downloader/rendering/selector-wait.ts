import { setTimeout as sleep } from 'node:timers/promises';
import type { CDPSession, Protocol } from 'puppeteer-core';
import type { Deadline } from './deadline';

/**
 * Waits until `wait_selector` matches in the page's main frame, with one Runtime.evaluate that the
 * page answers itself: the check runs at once, then on every DOM mutation (a MutationObserver, as
 * puppeteer's own wait polls for a selector without a visibility condition), and the page's own
 * timer ends it at the deadline — so the call always settles and leaves no observer behind.
 *
 * Why not `page.waitForSelector`: on the bench pages it cost ~10 ms of CPU per render across Node,
 * the browser and the renderer (puppeteer's query machinery in an isolated world of every new
 * document, a handle adopted into the main world and released again: a bench render sent 16 CDP
 * commands, now 4 — the navigation, this wait, the pending-work read and the snapshot). The bare
 * puppeteer loop of `npm run bench:render` @16 pages, its wait swapped for this one and nothing
 * else, alternating (2026-12-04, 2 cores): 24.06 / 25.90 pages/s at 77 / 71 ms CPU per page with
 * puppeteer's, 28.68 / 27.67 at 63 / 65 with this.
 *
 * The check runs in the main world, like the snapshot script and the pending-work reader: a page
 * that replaces `document.querySelector` or `MutationObserver` fools it as it would fool those (the
 * crawler renders pages, it does not defend against them). Its timer goes through the page's
 * `setTimeout` and is cleared when the selector appears, so the pending-timer tracker never counts
 * it as the page's own work once the wait is over.
 */

export type SelectorWaitResult = 'found' | 'timeout';

/** The evaluate's document went away (a navigation): the next document is asked again. */
const CONTEXT_GONE_PATTERN =
  /Execution context was destroyed|Cannot find context with specified id|Inspected target navigated or closed|Promise was collected/;

/** Pause before asking a document that replaced the one asked (it may not exist yet). */
const NEXT_DOCUMENT_PAUSE_MS = 20;

function selectorWaitExpression(selector: string, timeoutMs: number): string {
  return `new Promise(function (resolve) {
  var selector = ${JSON.stringify(selector)};
  if (document.querySelector(selector) !== null) return resolve(true);
  var observer = new MutationObserver(function () {
    if (document.querySelector(selector) === null) return;
    observer.disconnect();
    clearTimeout(timer);
    resolve(true);
  });
  var timer = setTimeout(function () { observer.disconnect(); resolve(false); }, ${timeoutMs});
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
})`;
}

function isContextGone(error: unknown): boolean {
  return error instanceof Error && CONTEXT_GONE_PATTERN.test(error.message);
}

/**
 * Resolves 'found' once `selector` (valid CSS, checked before the render) matches, 'timeout' when
 * the render's deadline passed first. A document replaced meanwhile is followed into the next
 * one; any other failure (the page crashed or closed, the check threw in the page) rejects.
 */
export async function waitForSelectorInPage(
  session: CDPSession,
  selector: string,
  deadline: Deadline,
): Promise<SelectorWaitResult> {
  while (!deadline.hasPassed()) {
    let answer: Protocol.Runtime.EvaluateResponse;
    try {
      answer = await session.send('Runtime.evaluate', {
        expression: selectorWaitExpression(selector, deadline.remainingMs()),
        awaitPromise: true,
        returnByValue: true,
      });
    } catch (error) {
      if (!isContextGone(error)) throw error;
      await sleep(NEXT_DOCUMENT_PAUSE_MS);
      continue;
    }
    if (answer.exceptionDetails !== undefined) {
      const detail = answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text;
      throw new Error(`waiting for "${selector}" failed in the page: ${detail}`);
    }
    return answer.result.value === true ? 'found' : 'timeout';
  }
  return 'timeout';
}
