import { backoffDelay } from '../../../backoff/exponential-backoff';
import { TikvRetryBudgetExhaustedError } from '../tikv-errors';
import { BackoffKind, BackoffPolicies } from './backoff-policies';

/**
 * Consecutive retries allowed without sleeping. A retry "now" is right when the error carried the
 * fix (NotLeader with the new leader, EpochNotMatch with the new regions); if the fix keeps not
 * working, we fall back to a short backoff instead of spinning.
 */
const MAX_CONSECUTIVE_IMMEDIATE_RETRIES = 3;

/**
 * The wall-clock retry allowance of one backend operation (a batch shares one budget across all its
 * regions). Every retry goes through here, so no path can loop forever: once the elapsed time
 * reaches the budget, the next retry throws TikvRetryBudgetExhaustedError naming the last cause.
 */
export class RetryBudget {
  private readonly startedAt = performance.now();
  private readonly attemptsByKind = new Map<BackoffKind, number>();
  private consecutiveImmediate = 0;
  private retries = 0;

  constructor(
    readonly operation: string,
    private readonly budgetMs: number,
    private readonly policies: BackoffPolicies,
  ) {}

  /** Number of retries so far; also used to rotate over peers when the leader is unknown. */
  get retryCount(): number {
    return this.retries;
  }

  /** Retry without waiting (the error told us what to fix). */
  retryNow(cause: string): Promise<void> {
    this.consumeRetry(cause);
    this.consecutiveImmediate += 1;
    if (this.consecutiveImmediate <= MAX_CONSECUTIVE_IMMEDIATE_RETRIES) return Promise.resolve();
    return this.sleep(this.nextDelay('regionMiss'));
  }

  /** Retry after the kind's exponential delay, or after `serverHintMs` when the server gave one. */
  backoff(kind: BackoffKind, cause: string, serverHintMs?: number): Promise<void> {
    this.consumeRetry(cause);
    this.consecutiveImmediate = 0;
    const delay = serverHintMs && serverHintMs > 0 ? serverHintMs : this.nextDelay(kind);
    return this.sleep(delay);
  }

  private consumeRetry(cause: string): void {
    this.retries += 1;
    if (this.elapsedMs() >= this.budgetMs) {
      throw new TikvRetryBudgetExhaustedError(this.operation, this.budgetMs, this.retries, cause);
    }
  }

  /** Equal jitter: half fixed, half random, so parallel clients do not retry in lockstep. */
  private nextDelay(kind: BackoffKind): number {
    const policy = this.policies[kind];
    const attempt = this.attemptsByKind.get(kind) ?? 0;
    this.attemptsByKind.set(kind, attempt + 1);
    return backoffDelay(
      { initial: policy.baseMs, cap: policy.capMs },
      { doublingCount: attempt, jitter: 'equal' },
    );
  }

  /** Never sleeps past the budget: the retry after it then either succeeds or reports exhaustion. */
  private sleep(delayMs: number): Promise<void> {
    const remaining = this.budgetMs - this.elapsedMs();
    const actual = Math.max(0, Math.min(delayMs, remaining));
    return new Promise((resolve) => setTimeout(resolve, actual));
  }

  private elapsedMs(): number {
    return performance.now() - this.startedAt;
  }
}
