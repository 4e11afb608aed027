import { serviceUnavailable } from '../../common/contract-runtime/contract-error';
import { MutationLock } from './mutation-lock';

/** What a mutation decided under the lock, and the promise that its writes are durable. */
export interface Staged<T> {
  result: T;
  durable: Promise<void>;
}

/**
 * Runs frontier mutations: the decision under the mutation lock, the wait for durability after it.
 *
 * A mutation reads, decides, updates the in-memory views and stages its writes while holding the
 * lock; then the lock passes on and the mutation waits for its own commit before it answers. So
 * while one batch is being committed (an fsync), the next mutation already runs — group commit —
 * and nobody is ever answered before their writes are durable. Reads that must see writes not yet
 * durable go through the store's overlay (FrontierStore).
 *
 * A commit that fails leaves memory ahead of storage. Rather than guess, the frontier then refuses
 * every further mutation with 503 service_unavailable until the process is restarted, which rebuilds
 * memory from storage; the write order guarantees storage itself is recoverable.
 */
export class FrontierMutator {
  readonly #lock = new MutationLock();
  #failure: unknown;

  constructor(private readonly onFailure: (error: unknown) => void) {}

  /** `isUrgent`: served before ordinary mutations waiting for the lock (see MutationLock). */
  async run<T>(decide: () => Promise<Staged<T>>, isUrgent = false): Promise<T> {
    this.#assertHealthy();
    const staged = await this.#lock.run(async () => {
      this.#assertHealthy();
      return decide();
    }, isUrgent);
    try {
      await staged.durable;
    } catch (error) {
      if (this.#failure === undefined) {
        this.#failure = error;
        this.onFailure(error);
      }
      // Not the caller's mistake: the same 503 every later mutation gets (the cause is logged).
      throw unavailable();
    }
    return staged.result;
  }

  /** True once a commit failed: every mutation is refused until the process restarts. */
  get hasFailed(): boolean {
    return this.#failure !== undefined;
  }

  /** Mutations waiting for the lock (a saturation signal). */
  get waitingCount(): number {
    return this.#lock.waitingCount;
  }

  #assertHealthy(): void {
    if (this.#failure !== undefined) throw unavailable();
  }
}

function unavailable(): Error {
  return serviceUnavailable(
    'the scheduler could not write to its storage; restart it (the frontier is rebuilt from storage)',
  );
}

/** A mutation with nothing to wait for. */
export function stagedWithoutWrites<T>(result: T): Staged<T> {
  return { result, durable: Promise.resolve() };
}
