/**
 * Whether the peer a client talks to answers again, shared by every call of that client: a retry
 * pause of one call ends as soon as another call got an answer (the lease loop's next lease call
 * proves the scheduler is back long before a report's backoff would have run out).
 */
export class PeerReachability {
  private readonly waiters = new Set<() => void>();

  /** The peer answered a call (with a status below 500: it is up and working). */
  noteAnswered(): void {
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /**
   * Resolves after `ms`, or earlier as soon as the peer answered any call; rejects at once when
   * `signal` aborts.
   */
  pause(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(finish);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.waiters.delete(finish);
        reject(signal?.reason);
      };
      const timer = setTimeout(finish, ms);
      this.waiters.add(finish);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Shortest pause between two tries while a deadline is near (a refused connection is cheap). */
export const MINIMUM_DEADLINE_PAUSE_MS = 250;

/**
 * A retry pause bounded by a deadline the answer is worth most before (a lease's expiry): never
 * longer than half the time left, so the tries get denser as the deadline nears and one of them
 * lands within a short moment of the peer's return — an outage that ends before the deadline ends
 * with an answer before it. Never shorter than MINIMUM_DEADLINE_PAUSE_MS; past the deadline (or
 * without one) the proposed pause stands.
 */
export function deadlineBoundedPauseMs(
  proposedMs: number,
  deadlineAtMs: number | undefined,
  nowMs: number,
): number {
  if (deadlineAtMs === undefined || !Number.isFinite(deadlineAtMs) || deadlineAtMs <= nowMs) {
    return proposedMs;
  }
  const bound = Math.max(MINIMUM_DEADLINE_PAUSE_MS, Math.floor((deadlineAtMs - nowMs) / 2));
  return Math.min(proposedMs, bound);
}
