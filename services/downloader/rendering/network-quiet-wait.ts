/** The part of the network recorder the quiet wait needs. */
export interface NetworkActivity {
  readonly inFlightCount: number;
  onActivity(listener: () => void): () => void;
}

/**
 * Resolves once no request has been in flight for `quietMs`, or after `capMs` at the latest
 * (a page that polls forever must not hold the render). Without this, XHRs that start or finish
 * just after the load event / wait_selector — like a late analytics or content call — are missing
 * from network_log (pitfalls.md: 300–500 ms caught them all).
 */
export function waitForNetworkQuiet(
  activity: NetworkActivity,
  quietMs: number,
  capMs: number,
): Promise<'quiet' | 'capped'> {
  return new Promise((resolve) => {
    let quietTimer: NodeJS.Timeout | undefined;
    const finish = (result: 'quiet' | 'capped') => {
      clearTimeout(quietTimer);
      clearTimeout(capTimer);
      unsubscribe();
      resolve(result);
    };
    const restartQuietTimer = () => {
      clearTimeout(quietTimer);
      quietTimer =
        activity.inFlightCount === 0 ? setTimeout(() => finish('quiet'), quietMs) : undefined;
    };
    const capTimer = setTimeout(() => finish('capped'), Math.max(0, capMs));
    const unsubscribe = activity.onActivity(restartQuietTimer);
    restartQuietTimer();
  });
}
