import type { Clock } from './clock';

/** Checked again at least this often, so a wake time that proves early cannot spin. */
const MIN_RECHECK_MS = 10;

export interface LeaseWaitersDependencies {
  clock: Clock;
  /** When, on the frontier's clock, something may next become due without anyone telling us. */
  nextWakeAtMs: () => number;
}

/**
 * Lease calls parked by long polling (GET /v1/lease with wait_ms) while nothing is due. A parked
 * call wakes — and tries to lease again, as an ordinary lease mutation, so two calls can never get
 * the same URL — when the frontier is told that work may be due (URLs admitted or re-queued, an
 * in-flight slot freed, a rule or a domain's health changed), when the next known due time arrives
 * (a domain's interval ends, a re-visit or a lease expiry falls due), or when its own wait ends.
 * Stopping releases every parked call at once.
 */
export class LeaseWaiters {
  readonly #parked = new Set<() => void>();
  #isStopped = false;

  constructor(private readonly dependencies: LeaseWaitersDependencies) {}

  /** Resolves when woken, at the next wake time, after `maxWaitMs`, or at stop. */
  wait(maxWaitMs: number): Promise<void> {
    if (this.#isStopped) return Promise.resolve();
    const { clock, nextWakeAtMs } = this.dependencies;
    const untilWakeMs = Math.max(MIN_RECHECK_MS, nextWakeAtMs() - clock.nowMs());
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#parked.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, Math.min(maxWaitMs, untilWakeMs));
      this.#parked.add(wake);
    });
  }

  /** Work may be due: every parked call tries again. */
  notify(): void {
    for (const wake of [...this.#parked]) wake();
  }

  get parkedCount(): number {
    return this.#parked.size;
  }

  get isStopped(): boolean {
    return this.#isStopped;
  }

  stop(): void {
    this.#isStopped = true;
    this.notify();
  }
}
