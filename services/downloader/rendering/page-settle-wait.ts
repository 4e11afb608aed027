import type { NetworkLogRecorder } from './network-log-recorder';
import { waitForNetworkQuiet } from './network-quiet-wait';

export interface PageSettleSettings {
  /** No request unfinished for this long before the page's pending work is looked at. */
  readonly settleMs: number;
  /** The upper bound: no response head pending for this long (the network-quiet rule). */
  readonly quietWindowMs: number;
  /** The hard bound (the quiet wait's cap, already cut to the render's deadline). */
  readonly capMs: number;
}

/**
 * `settled`: nothing in flight and nothing scheduled soon (the fast rule); `quiet`: the
 * network-quiet window passed first; `capped`: the page never went quiet.
 */
export type PageSettleResult = 'settled' | 'quiet' | 'capped';

/** What the wait reads of the network recorder. */
export type SettleActivity = Pick<
  NetworkLogRecorder,
  'awaitingHead' | 'awaitingLoad' | 'lastActivityAtMs' | 'activityCount'
>;

/**
 * Milliseconds until the page's next scheduled work is due; null: nothing scheduled; undefined:
 * unknown (pending-timer-tracker.ts).
 */
export type PendingWorkReader = () => Promise<number | null | undefined>;

/** A timer's callback runs a little after its due time; look again only after that. */
const TIMER_SLACK_MS = 10;
/** Least wait between two looks at the page (a timer due "now" on a busy page). */
const MIN_RECHECK_MS = 20;

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    function finish() {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    }
    signal.addEventListener('abort', finish, { once: true });
  });
}

const NEVER = new Promise<never>(() => undefined);

/**
 * The fast rule: repeat until nothing is left that the quiet rule would still catch —
 *  1. wait until no request is unfinished for `settleMs` (the page's code had time to react to
 *     the last response by starting the next request);
 *  2. ask the page when its next short timer is due; if nothing started meanwhile and no timer is
 *     due before the quiet rule would have ended (last network activity + quiet window), done;
 *  3. otherwise sleep until that timer has fired, and look again.
 * Never resolves when the page cannot be asked: then only the quiet rule ends the wait.
 */
async function settleByPendingWork(
  activity: SettleActivity,
  readPendingWork: PendingWorkReader,
  settings: PageSettleSettings,
  signal: AbortSignal,
): Promise<PageSettleResult> {
  for (;;) {
    const idle = await waitForNetworkQuiet(
      activity.awaitingLoad,
      settings.settleMs,
      settings.capMs,
      signal,
    );
    if (idle !== 'quiet') return NEVER;
    const activityBefore = activity.activityCount;
    const nextDueInMs = await readPendingWork();
    if (signal.aborted || nextDueInMs === undefined) return NEVER;
    if (activity.activityCount !== activityBefore) continue; // a request started meanwhile
    const quietRuleEndsInMs = activity.lastActivityAtMs + settings.quietWindowMs - Date.now();
    if (nextDueInMs === null || nextDueInMs > quietRuleEndsInMs) return 'settled';
    await abortableDelay(Math.max(MIN_RECHECK_MS, nextDueInMs + TIMER_SLACK_MS), signal);
    if (signal.aborted) return NEVER;
  }
}

/**
 * The page-complete rule, after `wait_selector` is present (or the load event without one):
 * whichever comes first of the fast rule (settleByPendingWork), the network-quiet window (the
 * rule before it, now the upper bound: no page waits longer than it did) and the cap. A
 * long-polling request that never answers holds the page until the cap at most; it is in
 * network_log with `http_status` null.
 */
export async function waitForPageToSettle(
  activity: SettleActivity,
  readPendingWork: PendingWorkReader,
  settings: PageSettleSettings,
): Promise<PageSettleResult> {
  const done = new AbortController();
  try {
    return await Promise.race([
      waitForNetworkQuiet(
        activity.awaitingHead,
        settings.quietWindowMs,
        settings.capMs,
        done.signal,
      ).then((result) => (result === 'quiet' ? 'quiet' : 'capped')),
      settleByPendingWork(activity, readPendingWork, settings, done.signal),
    ]);
  } finally {
    done.abort();
  }
}
