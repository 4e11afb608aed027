import type { CommitQueue } from './commit-queue';
import { FrontierStoppingError, FrontierUnavailableError } from './frontier-errors';
import { MutationLock } from './mutation-lock';
import { WriteBatch } from './write-batch';

export interface FrontierMutatorDependencies {
  commits: CommitQueue;
  /** Told once, about the first failed commit (the frontier refuses mutations from then on). */
  onFailure: (error: unknown) => void;
}

/**
 * Runs frontier mutations: the decision under the mutation lock, the wait for durability after it.
 *
 * A mutation reads, decides, updates the in-memory views and stages its writes into a batch while
 * holding the lock; the batch goes to the commit queue and the lock passes on at once. So while one
 * commit is being written the next decisions already run, and their batches share the next commit
 * (group commit) — and nobody is answered before the commit carrying their writes is durable. Reads
 * that must see writes not yet durable go through the store's overlay (FrontierStore).
 *
 * A commit that fails leaves memory ahead of storage. Rather than guess, the frontier then refuses
 * every further mutation (FrontierUnavailableError) until the process is restarted, which rebuilds
 * memory from storage; the write order guarantees storage itself is recoverable.
 */
export class FrontierMutator {
  readonly #lock = new MutationLock();
  #failure: unknown;
  #isClosed = false;

  constructor(private readonly dependencies: FrontierMutatorDependencies) {}

  /**
   * Decides under the lock (staging into the batch it is given) and resolves to the decision once
   * its writes are durable. `isUrgent`: served before ordinary mutations (see MutationLock).
   */
  async run<T>(decide: (batch: WriteBatch) => Promise<T> | T, isUrgent = false): Promise<T> {
    this.#assertOpen();
    const { result, durable } = await this.#lock.run(async () => {
      this.#assertOpen();
      const batch = new WriteBatch();
      const decided = await decide(batch);
      return { result: decided, durable: this.#commit(batch) };
    }, isUrgent);
    await durable;
    return result;
  }

  /** True once a commit failed: every mutation is refused until the process restarts. */
  get hasFailed(): boolean {
    return this.#failure !== undefined;
  }

  /** Mutations waiting for the lock (a saturation signal). */
  get waitingCount(): number {
    return this.#lock.waitingCount;
  }

  /**
   * Refuses new mutations, lets those under way finish, then runs `finalDecide` as the very last
   * mutation and waits until everything is written. Resolves to false when the frontier had failed
   * (then nothing more is written).
   */
  async close(finalDecide: (batch: WriteBatch) => void): Promise<boolean> {
    this.#isClosed = true;
    return this.#lock.run(async () => {
      if (this.#failure !== undefined) return false;
      const batch = new WriteBatch();
      finalDecide(batch);
      try {
        await this.#commit(batch);
        await this.dependencies.commits.settled();
      } catch {
        return false;
      }
      return this.#failure === undefined;
    }, true);
  }

  /** Prepared now (a bad key or document refuses the batch whole); durable later. */
  async #commit(batch: WriteBatch): Promise<void> {
    try {
      const prepared = batch.prepare();
      if (batch.isEmpty) {
        prepared.settle();
        return;
      }
      await this.dependencies.commits.commit(prepared);
    } catch (error) {
      if (this.#failure === undefined) {
        this.#failure = error;
        this.dependencies.onFailure(error);
      }
      // Not the caller's mistake: the refusal every later mutation gets (the cause is logged).
      throw new FrontierUnavailableError();
    }
  }

  #assertOpen(): void {
    if (this.#failure !== undefined) throw new FrontierUnavailableError();
    if (this.#isClosed) throw new FrontierStoppingError();
  }
}
