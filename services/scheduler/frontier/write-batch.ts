import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { KeyspaceWrite } from '../../common/storage/keyspace-types';
import type { PrimaryKeyInput } from '../../common/storage/primary-key';
import type { PreparedWrites } from '../../common/storage/table-storage';

/**
 * The order in which the writes of one frontier mutation must become durable when the backend
 * cannot commit them together, so that every intermediate state is recoverable:
 *
 *   `pointers`    — lease records, new index entries, candidate rows, audit records: harmless while
 *                   nothing refers to them yet (readers re-check every index entry against its
 *                   url_task; a lease holds a URL only until the URL names it as applied);
 *   `documents`   — new url_task documents (links just discovered, seeds) and other documents;
 *   `transitions` — changes of existing url_task documents (a URL reported, re-queued, expired).
 *                   After the new documents: a report's links are durable before the result that
 *                   discovered them moves on, so a report retried after a crash in between —
 *                   which no longer applies the moved result — cannot lose its links;
 *   `answers`     — the answer to a report or a reclaimed lease (lease_result), once every result
 *                   it counts is applied: a retried report never gets an answer for work that is
 *                   not durable;
 *   `cleanup`     — the lease record deleted, index entries the documents no longer refer to.
 *                   Last: a lease whose answer is stored but whose record survived a crash is
 *                   finished at start-up (frontier-startup.ts), never counted live.
 */
export type WritePhase = 'pointers' | 'documents' | 'transitions' | 'answers' | 'cleanup';

export const WRITE_PHASES: readonly WritePhase[] = [
  'pointers',
  'documents',
  'transitions',
  'answers',
  'cleanup',
];

type TableWrites = Map<
  KeyspaceTable<unknown>,
  { puts: Array<KeyspaceWrite<unknown>>; deletes: PrimaryKeyInput[] }
>;

/** A batch encoded and checked, per phase: what the commit queue issues. */
export interface PreparedBatch {
  phases: PreparedWrites[][];
  /** The batch is durable: runs its after-durable hooks. */
  settle(): void;
  /** The batch will never be durable: runs its on-failure hooks. */
  fail(error: unknown): void;
}

/**
 * The writes of one mutation, sorted by phase. Nothing is written here: a mutation stages its
 * writes into a batch while it decides, and the commit queue (commit-queue.ts) writes them.
 */
export class WriteBatch {
  readonly #phases = new Map<WritePhase, TableWrites>(
    WRITE_PHASES.map((phase) => [phase, new Map()]),
  );
  readonly #afterDurable: Array<() => void> = [];
  readonly #onFailure: Array<(error: unknown) => void> = [];
  #writeCount = 0;

  put<T>(
    table: KeyspaceTable<T>,
    primaryKey: PrimaryKeyInput,
    value: T,
    phase: WritePhase,
    ttlSeconds?: number,
  ): void {
    this.#writesOf(table, phase).puts.push({ primaryKey, value, ttlSeconds });
    this.#writeCount += 1;
  }

  delete<T>(
    table: KeyspaceTable<T>,
    primaryKey: PrimaryKeyInput,
    phase: WritePhase = 'cleanup',
  ): void {
    this.#writesOf(table, phase).deletes.push(primaryKey);
    this.#writeCount += 1;
  }

  /** Runs once the batch is durable (to drop overlay entries, release guards). */
  afterDurable(hook: () => void): void {
    this.#afterDurable.push(hook);
  }

  /** Runs if the batch is refused or its commit fails (to release those waiting for it). */
  onFailure(hook: (error: unknown) => void): void {
    this.#onFailure.push(hook);
  }

  get isEmpty(): boolean {
    return this.#writeCount === 0;
  }

  get writeCount(): number {
    return this.#writeCount;
  }

  /**
   * Encodes and checks every key and document. Throws on the first bad one before anything is
   * issued, so a refused batch never lands in part.
   */
  prepare(): PreparedBatch {
    let phases: PreparedWrites[][];
    try {
      phases = WRITE_PHASES.map((phase) =>
        [...(this.#phases.get(phase) as TableWrites)].map(([table, { puts, deletes }]) =>
          table.prepareWrites(puts, deletes),
        ),
      );
    } catch (error) {
      for (const hook of this.#onFailure) hook(error);
      throw error;
    }
    const afterDurable = this.#afterDurable;
    const onFailure = this.#onFailure;
    return {
      phases,
      settle: () => {
        for (const hook of afterDurable) hook();
      },
      fail: (error) => {
        for (const hook of onFailure) hook(error);
      },
    };
  }

  #writesOf<T>(table: KeyspaceTable<T>, phase: WritePhase) {
    const tables = this.#phases.get(phase) as TableWrites;
    const key = table as KeyspaceTable<unknown>;
    let writes = tables.get(key);
    if (writes === undefined) {
      writes = { puts: [], deletes: [] };
      tables.set(key, writes);
    }
    return writes;
  }
}
