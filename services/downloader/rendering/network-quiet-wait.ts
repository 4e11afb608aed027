/** The part of the network recorder the quiet wait needs. */
export interface NetworkActivity {
  readonly inFlightCount: number;
  onActivity(listener: () => void): () => void;
}

export type QuietWaitResult = 'quiet' | 'capped' | 'aborted';

/**
 * Resolves once no request has been in flight for `quietMs`, or after `capMs` at the latest
 * (a page that polls forever must not hold the render), or when `signal` aborts. Without a wait
 * like this, XHRs that start or finish just after the load event / wait_selector — like a late
 * analytics or content call — are missing from network_log (pitfalls.md: 300–500 ms caught them
 * all).
 */
export function waitForNetworkQuiet(
  activity: NetworkActivity,
  quietMs: number,
  capMs: number,
  signal?: AbortSignal,
): Promise<QuietWaitResult> {
  return new Promise((resolve) => {
    let quietTimer: NodeJS.Timeout | undefined;
    const finish = (result: QuietWaitResult) => {
      clearTimeout(quietTimer);
      clearTimeout(capTimer);
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const onAbort = () => finish('aborted');
    const restartQuietTimer = () => {
      clearTimeout(quietTimer);
      quietTimer =
        activity.inFlightCount === 0 ? setTimeout(() => finish('quiet'), quietMs) : undefined;
    };
    const capTimer = setTimeout(() => finish('capped'), Math.max(0, capMs));
    const unsubscribe = activity.onActivity(restartQuietTimer);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) return finish('aborted');
    restartQuietTimer();
  });
}
