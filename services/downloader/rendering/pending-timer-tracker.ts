import { randomBytes } from 'node:crypto';
import type { CDPSession } from 'puppeteer-core';

/**
 * What a page has scheduled to run soon, as the page-complete rule needs it (page-settle-wait.ts).
 *
 * Requests are seen over CDP; the work that will start the next request is not: a page that calls
 * `setTimeout(loadRecommendations, 200)` after its load event is quiet on the network until the
 * timer fires. A script installed in every new document (Page.addScriptToEvaluateOnNewDocument,
 * main world, before the page's own scripts) therefore keeps the due time of each pending short
 * timer, and the engine reads "how soon is the next one due" in one Runtime.evaluate.
 *
 * What counts as pending:
 *  - setTimeout with a function and a delay up to `trackedDelayLimitMs` (longer ones could not be
 *    waited for anyway), until it fires or is cleared;
 *  - setInterval up to that period, for its first INTERVAL_TICK_LIMIT ticks ("poll until ready"
 *    patterns); after that a poller counts no longer, or no page with a spinner would ever settle;
 *  - requestIdleCallback, until it runs (due now).
 * Not tracked: requestAnimationFrame loops, timers inside iframes, workers. They are covered by
 * the network-quiet upper bound, as before this rule existed.
 *
 * The wrappers are Proxies of the native functions (their name and toString stay native-looking),
 * and the reader hides under a random, non-enumerable name chosen per process.
 */

/** Ticks of a short setInterval that still count as pending work. */
const INTERVAL_TICK_LIMIT = 3;

export const PENDING_WORK_READER_NAME = `__pendingWork${randomBytes(6).toString('hex')}`;

/** Source for Page.addScriptToEvaluateOnNewDocument. */
export function pendingTimerTrackerSource(trackedDelayLimitMs: number): string {
  const settings = JSON.stringify({
    readerName: PENDING_WORK_READER_NAME,
    limitMs: trackedDelayLimitMs,
    intervalTickLimit: INTERVAL_TICK_LIMIT,
  });
  return String.raw`(function (settings) {
  if (Object.prototype.hasOwnProperty.call(window, settings.readerName)) return;
  var timers = new Map();
  var idleCallbacks = new Map();
  var clock = performance;
  function delayOf(value) { var number = Number(value); return number > 0 ? number : 0; }
  function wrapTimer(name, isInterval) {
    var native = window[name];
    if (typeof native !== 'function') return;
    window[name] = new Proxy(native, { apply: function (target, thisArgument, argumentList) {
      var handler = argumentList[0];
      var delay = delayOf(argumentList[1]);
      if (typeof handler !== 'function' || delay > settings.limitMs) {
        return Reflect.apply(target, thisArgument, argumentList);
      }
      var id;
      var entry = { dueAt: clock.now() + delay, tickCount: 0 };
      var wrapped = argumentList.slice();
      wrapped[0] = function () {
        if (!isInterval) timers.delete(id);
        else if (++entry.tickCount >= settings.intervalTickLimit) timers.delete(id);
        else entry.dueAt = clock.now() + delay;
        return handler.apply(this, arguments);
      };
      id = Reflect.apply(target, thisArgument, wrapped);
      timers.set(id, entry);
      return id;
    } });
  }
  function wrapClear(name, registry) {
    var native = window[name];
    if (typeof native !== 'function') return;
    window[name] = new Proxy(native, { apply: function (target, thisArgument, argumentList) {
      registry.delete(argumentList[0]);
      return Reflect.apply(target, thisArgument, argumentList);
    } });
  }
  function wrapIdleCallback() {
    var native = window.requestIdleCallback;
    if (typeof native !== 'function') return;
    window.requestIdleCallback = new Proxy(native, { apply: function (target, thisArgument, argumentList) {
      var handler = argumentList[0];
      if (typeof handler !== 'function') return Reflect.apply(target, thisArgument, argumentList);
      var id;
      var wrapped = argumentList.slice();
      wrapped[0] = function () { idleCallbacks.delete(id); return handler.apply(this, arguments); };
      id = Reflect.apply(target, thisArgument, wrapped);
      idleCallbacks.set(id, true);
      return id;
    } });
  }
  wrapTimer('setTimeout', false);
  wrapTimer('setInterval', true);
  wrapClear('clearTimeout', timers);
  wrapClear('clearInterval', timers);
  wrapIdleCallback();
  wrapClear('cancelIdleCallback', idleCallbacks);
  Object.defineProperty(window, settings.readerName, {
    enumerable: false,
    value: function () {
      if (idleCallbacks.size > 0) return 0;
      var now = clock.now();
      var next = -1;
      timers.forEach(function (entry) {
        var dueIn = Math.max(0, Math.ceil(entry.dueAt - now));
        if (next < 0 || dueIn < next) next = dueIn;
      });
      return next;
    }
  });
})(${settings});`;
}

/**
 * Milliseconds until the page's next pending short timer is due (0: due now or an idle callback
 * waits), null when nothing is pending, undefined when the tracker is not in this document (it
 * was created before the tracker was installed) or the page could not be asked.
 */
export async function readNextPendingWork(session: CDPSession): Promise<number | null | undefined> {
  const name = JSON.stringify(PENDING_WORK_READER_NAME);
  try {
    const result = await session.send('Runtime.evaluate', {
      expression: `(function () { var read = window[${name}]; return typeof read === 'function' ? read() : -2; })()`,
      returnByValue: true,
    });
    const value: unknown = result.result.value;
    if (result.exceptionDetails !== undefined || typeof value !== 'number' || value === -2) {
      return undefined;
    }
    return value < 0 ? null : value;
  } catch {
    return undefined; // the document went away meanwhile: the caller falls back to quiet
  }
}
