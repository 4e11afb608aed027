/**
 * Exponential backoff with full jitter: the n-th retry waits a random time in
 * [0, min(cap, base · 2^(n-1))]. Jitter keeps many downloaders that lost the scheduler at the
 * same moment from retrying in lockstep.
 */
export function backoffDelayMs(
  retryNumber: number,
  baseMs: number,
  capMs: number,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, retryNumber - 1));
  return Math.round(random() * ceiling);
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
