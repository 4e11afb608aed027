import type { PreparedBatch } from './write-batch';

interface QueuedBatch {
  batch: PreparedBatch;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Observes each commit: how many batches it carried and how long writing them took (metrics). */
export type CommitObserver = (batchCount: number, durationSeconds: number) => void;

/**
 * Group commit. Batches are written in the order they were decided. While one commit is being
 * written, the batches decided meanwhile wait and then go out together as the next commit — so the
 * cost of a commit (a transaction, an fsync) is shared by every request that arrived during the
 * previous one, and each request is acknowledged only after the commit that carries its batch.
 *
 * On a backend that commits writes issued together atomically (LMDB: lmdb-js puts every write
 * issued in one synchronous run into one transaction), a commit issues all its batches at once. On
 * a backend that does not (TiKV splits writes per region), a commit writes its batches one after
 * the other, each phase by phase (write-batch.ts), so that a crash leaves every batch before the
 * interrupted one whole and the interrupted one recoverable. Batches are never merged across
 * phases there: one batch's clean-up may be what makes the next batch's pointers safe.
 *
 * After a failed commit nothing more is written: memory already moved on with the failed batches,
 * and only a restart (which rebuilds memory from storage) brings the two together again.
 */
export class CommitQueue {
  #waiting: QueuedBatch[] = [];
  #writing: Promise<void> | undefined;
  #failure: unknown;

  constructor(
    private readonly isBatchAtomic: boolean,
    private readonly onCommit: CommitObserver = () => undefined,
  ) {}

  /** Queues a prepared batch; resolves once it is durable. */
  commit(batch: PreparedBatch): Promise<void> {
    if (this.#failure !== undefined) {
      batch.fail(this.#failure);
      return Promise.reject(this.#failure);
    }
    const durable = new Promise<void>((resolve, reject) =>
      this.#waiting.push({ batch, resolve, reject }),
    );
    this.#writing ??= this.#writeWhileWaiting();
    return durable;
  }

  /** Resolves once every batch queued so far is written (or refused). */
  async settled(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
  }

  async #writeWhileWaiting(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const group = this.#waiting;
        this.#waiting = [];
        const startedAt = performance.now();
        try {
          await this.#write(group.map((queued) => queued.batch));
        } catch (error) {
          this.#failure = error;
          for (const queued of [...group, ...this.#waiting]) {
            queued.batch.fail(error);
            queued.reject(error);
          }
          this.#waiting = [];
          return;
        }
        this.onCommit(group.length, (performance.now() - startedAt) / 1000);
        for (const queued of group) {
          queued.batch.settle();
          queued.resolve();
        }
      }
    } finally {
      this.#writing = undefined;
    }
  }

  async #write(batches: PreparedBatch[]): Promise<void> {
    if (this.isBatchAtomic) {
      // One synchronous run: one transaction, ordered after every earlier commit.
      const issued = batches.flatMap((batch) =>
        batch.phases.flatMap((phase) => phase.flatMap((writes) => writes.issue())),
      );
      await Promise.all(issued);
      return;
    }
    for (const batch of batches) {
      for (const phase of batch.phases) {
        await Promise.all(phase.flatMap((writes) => writes.issue()));
      }
    }
  }
}
