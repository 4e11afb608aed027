import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { KeyspaceWrite } from '../../common/storage/keyspace-types';
import type { PrimaryKeyInput } from '../../common/storage/primary-key';
import type { PreparedWrites } from '../../common/storage/table-storage';

/**
 * The order in which the writes of one frontier operation must become durable when the backend
 * cannot commit them together, so that every intermediate state is recoverable:
 *
 *   `pointers`    — lease records, new index entries, candidate rows: harmless while nothing
 *                   refers to them yet (readers re-check every index entry against its url_task);
 *   `documents`   — new url_task documents (links just discovered, seeds) and other documents;
 *   `transitions` — changes of existing url_task documents (a URL leased, reported, re-queued).
 *                   After the new documents: a report's links are durable before the result that
 *                   discovered them moves on, so a report retried after a crash in between —
 *                   which no longer applies the moved result — cannot lose its links;
 *   `cleanup`     — deletion of index entries and records the documents no longer refer to.
 */
export type WritePhase = 'pointers' | 'documents' | 'transitions' | 'cleanup';

const PHASES: readonly WritePhase[] = ['pointers', 'documents', 'transitions', 'cleanup'];

type TableWrites = Map<
  KeyspaceTable<unknown>,
  { puts: Array<KeyspaceWrite<unknown>>; deletes: PrimaryKeyInput[] }
>;

/**
 * The writes of one mutation. On a backend that commits writes issued together as one transaction
 * (LMDB: lmdb-js commits every write queued in one event turn atomically, in order), `commit` issues
 * the whole batch at once and hands back the promise of its durability without waiting — batches
 * reach the disk in the order they were committed, one transaction each. On a backend that does not
 * (TiKV splits batches per region), `commit` writes the phases one after the other and waits.
 */
export class WriteBatch {
  readonly #phases = new Map<WritePhase, TableWrites>(PHASES.map((phase) => [phase, new Map()]));
  readonly #afterDurable: Array<() => void> = [];
  #isCommitted = false;

  constructor(
    private readonly isAtomic: boolean,
    private readonly track: (durable: Promise<void>) => void,
  ) {}

  put<T>(
    table: KeyspaceTable<T>,
    primaryKey: PrimaryKeyInput,
    value: T,
    phase: WritePhase,
    ttlSeconds?: number,
  ): void {
    this.#writesOf(table, phase).puts.push({ primaryKey, value, ttlSeconds });
  }

  delete<T>(
    table: KeyspaceTable<T>,
    primaryKey: PrimaryKeyInput,
    phase: WritePhase = 'cleanup',
  ): void {
    this.#writesOf(table, phase).deletes.push(primaryKey);
  }

  /** Runs once the batch is durable (to drop overlay entries, release guards). */
  afterDurable(hook: () => void): void {
    this.#afterDurable.push(hook);
  }

  /**
   * Writes the batch; resolves to the promise that it is durable (see the class comment). Every
   * key and document is checked before the first write leaves: a bad one (a key over the length
   * limit) refuses the whole batch instead of landing half of it. The refusal rejects `durable`
   * like a failed write, since the in-memory views already moved on.
   */
  async commit(): Promise<{ durable: Promise<void> }> {
    if (this.#isCommitted) throw new Error('a write batch is committed once');
    this.#isCommitted = true;
    let durable: Promise<void>;
    try {
      const prepared = PHASES.map((phase) => this.#prepare(phase));
      if (this.isAtomic) {
        // Issued in one synchronous run: one transaction, ordered after every earlier batch.
        durable = Promise.all(
          prepared.flatMap((phase) => phase.flatMap((writes) => writes.issue())),
        ).then(() => undefined);
      } else {
        for (const phase of prepared) await Promise.all(phase.flatMap((writes) => writes.issue()));
        durable = Promise.resolve();
      }
    } catch (error) {
      durable = Promise.reject(error);
    }
    const settled = durable.then(() => {
      for (const hook of this.#afterDurable) hook();
    });
    this.track(settled);
    return { durable: settled };
  }

  #prepare(phase: WritePhase): PreparedWrites[] {
    return [...(this.#phases.get(phase) ?? [])].map(([table, { puts, deletes }]) =>
      table.prepareWrites(puts, deletes),
    );
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
