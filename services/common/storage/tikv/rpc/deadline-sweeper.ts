import * as grpc from '@grpc/grpc-js';

interface TrackedCall {
  expiresAt: number;
  expire: () => void;
}

/**
 * Enforces per-call deadlines with one shared, coarse timer instead of grpc-js' per-call deadline.
 *
 * Why: a grpc-js deadline arms a timer per call on both ends and costs ~40 µs per round trip on a
 * loopback measurement (0.235 ms vs 0.188 ms p50), a fifth of a point read. Our deadlines are
 * seconds long, so checking them every few tens of milliseconds is precise enough.
 */
export class DeadlineSweeper {
  private readonly inFlight = new Set<TrackedCall>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly resolutionMs: number) {}

  /** Tracks a call; `expire` runs once if it is still in flight after `timeoutMs`. */
  track(timeoutMs: number, expire: () => void): TrackedCall {
    const tracked = { expiresAt: performance.now() + timeoutMs, expire };
    this.inFlight.add(tracked);
    this.timer ??= setInterval(() => this.sweep(), this.resolutionMs).unref();
    return tracked;
  }

  untrack(tracked: TrackedCall): void {
    this.inFlight.delete(tracked);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.inFlight.clear();
  }

  private sweep(): void {
    const now = performance.now();
    for (const tracked of this.inFlight) {
      if (tracked.expiresAt > now) continue;
      this.inFlight.delete(tracked);
      tracked.expire();
    }
  }
}

/** The error a grpc-js deadline would have produced, so callers classify it the same way. */
export function deadlineExceededError(method: string, timeoutMs: number): grpc.ServiceError {
  const details = `${method} exceeded its ${timeoutMs} ms deadline`;
  return Object.assign(
    new Error(`${grpc.status.DEADLINE_EXCEEDED} DEADLINE_EXCEEDED: ${details}`),
    {
      code: grpc.status.DEADLINE_EXCEEDED,
      details,
      metadata: new grpc.Metadata(),
    },
  );
}
