import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { KeyspaceWrite } from '../../common/storage/keyspace-types';
import type { PrimaryKeyInput } from '../../common/storage/primary-key';

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

  /** Writes the batch; resolves to the promise that it is durable (see the class comment). */
  async commit(): Promise<{ durable: Promise<void> }> {
    if (this.#isCommitted) throw new Error('a write batch is committed once');
    this.#isCommitted = true;
    let durable: Promise<void>;
    if (this.isAtomic) {
      // Issued in one synchronous run: one transaction, ordered after every earlier batch.
      durable = Promise.all(PHASES.flatMap((phase) => this.#issue(phase))).then(() => undefined);
    } else {
      for (const phase of PHASES) await Promise.all(this.#issue(phase));
      durable = Promise.resolve();
    }
    const settled = durable.then(() => {
      for (const hook of this.#afterDurable) hook();
    });
    this.track(settled);
    return { durable: settled };
  }

  #issue(phase: WritePhase): Array<Promise<void>> {
    const writes: Array<Promise<void>> = [];
    for (const [table, { puts, deletes }] of this.#phases.get(phase) ?? []) {
      if (puts.length > 0) writes.push(table.putMany(puts));
      if (deletes.length > 0) writes.push(table.deleteMany(deletes));
    }
    return writes;
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
