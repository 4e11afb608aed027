import type { OrderedKeyValueBackend } from '../../common/storage/ordered-key-value-backend';
import type { PreparedBatch } from './write-batch';

interface QueuedBatch {
  batch: PreparedBatch;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Observes each commit: how many batches it carried and how long writing them took (metrics). */
export type CommitObserver = (batchCount: number, durationSeconds: number) => void;

/**
 * How batches reach storage (see CommitQueue):
 * - `phased`: one batch after the other, phase by phase — a backend that does not commit writes
 *   issued together atomically (TiKV splits them per region);
 * - `grouped`: the batches decided while one commit is written go out together as the next commit
 *   — a backend that commits one synchronous run of writes as one transaction (LMDB);
 * - `pipelined`: each batch is issued as soon as it is decided, without waiting for the commits
 *   before it — a backend that is atomic per run and also keeps the order of runs across a failure
 *   (`keepsIssueOrder`: LMDB written behind a journal).
 */
export type CommitMode = 'phased' | 'grouped' | 'pipelined';

/** The commit mode `backend` allows (the fastest that keeps the frontier's crash-safety). */
export function commitModeOf(backend: OrderedKeyValueBackend): CommitMode {
  if (backend.backendName !== 'lmdb') return 'phased';
  return backend.keepsIssueOrder === true ? 'pipelined' : 'grouped';
}

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
 * Pipelined (a backend that keeps issue order across failures), a batch is issued the moment it is
 * decided — in one synchronous run, so it is one transaction or part of one — and the backend
 * groups whatever was issued while its previous transaction was written. A request then waits for
 * its own transaction only, not also for the one under way when it was decided (and for the event
 * loop to come round to that one's completion first). Acknowledgements still go out in decision
 * order, and a batch is acknowledged only once every batch before it is durable.
 *
 * After a failed commit nothing more is written: memory already moved on with the failed batches,
 * and only a restart (which rebuilds memory from storage) brings the two together again. Pipelined,
 * batches issued behind the failed one may reach the backend, which guarantees they never take
 * effect; the queue fails them like every later one.
 */
export class CommitQueue {
  #waiting: QueuedBatch[] = [];
  #writing: Promise<void> | undefined;
  /** Pipelined: settles once the last batch issued is acknowledged or failed. */
  #lastIssued: Promise<void> = Promise.resolve();
  #failure: unknown;

  constructor(
    private readonly mode: CommitMode,
    private readonly onCommit: CommitObserver = () => undefined,
  ) {}

  /** Queues a prepared batch; resolves once it is durable. */
  commit(batch: PreparedBatch): Promise<void> {
    if (this.#failure !== undefined) {
      batch.fail(this.#failure);
      return Promise.reject(this.#failure);
    }
    if (this.mode === 'pipelined') return this.#issueNow(batch);
    const durable = new Promise<void>((resolve, reject) =>
      this.#waiting.push({ batch, resolve, reject }),
    );
    this.#writing ??= this.#writeWhileWaiting();
    return durable;
  }

  /** Resolves once every batch queued so far is written (or refused). */
  async settled(): Promise<void> {
    while (this.#writing !== undefined) await this.#writing;
    await this.#lastIssued;
  }

  /**
   * Pipelined: issues the batch now; acknowledges it once it is durable and every batch issued
   * before it was acknowledged — or fails it when any of them failed.
   */
  #issueNow(batch: PreparedBatch): Promise<void> {
    const startedAt = performance.now();
    let written: Promise<unknown>;
    try {
      written = Promise.all(issueAll([batch]));
    } catch (error) {
      written = Promise.reject(error);
    }
    const before = this.#lastIssued;
    const acknowledged = written.then(
      async () => {
        await before;
        if (this.#failure !== undefined) throw this.#failure;
        this.onCommit(1, (performance.now() - startedAt) / 1000);
        batch.settle();
      },
      async (error: unknown) => {
        await before;
        this.#failure ??= error;
        throw this.#failure;
      },
    );
    const settled = acknowledged.catch((error: unknown) => batch.fail(error));
    this.#lastIssued = settled;
    return acknowledged;
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
    if (this.mode === 'grouped') {
      // One synchronous run: one transaction, ordered after every earlier commit.
      await Promise.all(issueAll(batches));
      return;
    }
    for (const batch of batches) {
      for (const phase of batch.phases) {
        await Promise.all(phase.flatMap((writes) => writes.issue()));
      }
    }
  }
}

/** Every write of `batches`, issued in one synchronous run (one transaction on LMDB). */
function issueAll(batches: PreparedBatch[]): Array<Promise<void>> {
  return batches.flatMap((batch) =>
    batch.phases.flatMap((phase) => phase.flatMap((writes) => writes.issue())),
  );
}
