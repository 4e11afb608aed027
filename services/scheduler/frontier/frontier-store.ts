import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { PrimaryKey } from '../../common/storage/primary-key';
import type { IndexEntryDocument, UrlTaskDocument } from './frontier-documents';
import { EMPTY_INDEX_ENTRY, type FrontierTables } from './frontier-tables';
import { isSamePlacement, placementOf, type IndexPlacement } from './index-placement';
import type { Staged } from './frontier-mutator';
import { WriteBatch } from './write-batch';

/** One url_task write: `previous` is what the writer read (undefined for a new URL). */
export interface UrlTaskChange {
  previous: UrlTaskDocument | undefined;
  next: UrlTaskDocument;
}

/** In-memory views (counters, per-domain schedule) that follow every staged url_task change. */
export interface UrlTaskChangeListener {
  onUrlTaskChanged(previous: UrlTaskDocument | undefined, next: UrlTaskDocument): void;
}

/**
 * The only writer of url_task and its three ordering indexes, and the overlay that lets a mutation
 * see the writes of earlier mutations whose batches are committed but not yet durable (see
 * FrontierMutator): url_task documents by hash, and due-index entries added per domain. Readers
 * that take decisions read url_tasks through `readUrlTasks`; rare readers that need every earlier
 * write in storage wait for `settled()`.
 *
 * A change is staged in the order that keeps every intermediate state recoverable without a
 * multi-key transaction (see WriteBatch): the new index entry as a pointer, the url_task as the
 * document, the old entry as cleanup. A crash between phases never leaves a URL that no index points
 * to — it would never be served again — at worst a stale entry, which readers re-check against
 * url_task and remove.
 */
export class FrontierStore {
  readonly #indexes: Record<IndexPlacement['indexName'], KeyspaceTable<IndexEntryDocument>>;
  /** url_tasks staged but not yet durable. */
  readonly #pendingTasks = new Map<string, UrlTaskDocument>();
  /** url_due_index entries staged but not yet durable, per domain, by encoded key. */
  readonly #pendingDueEntries = new Map<string, Map<string, PrimaryKey>>();
  readonly #inFlightCommits = new Set<Promise<void>>();

  constructor(
    private readonly tables: FrontierTables,
    private readonly listeners: readonly UrlTaskChangeListener[],
    /** The backend commits writes issued together atomically (LMDB); see WriteBatch. */
    private readonly isBatchAtomic: boolean,
  ) {
    this.#indexes = {
      due: tables.dueIndex,
      revisit: tables.revisitIndex,
      waiting: tables.waitingIndex,
    };
  }

  batch(): WriteBatch {
    return new WriteBatch(this.isBatchAtomic, (durable) => {
      this.#inFlightCommits.add(durable);
      const forget = () => this.#inFlightCommits.delete(durable);
      durable.then(forget, forget);
    });
  }

  /** Resolves once every batch committed so far is durable (or failed). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlightCommits]);
  }

  /** url_tasks as the frontier knows them: the staged version where one is pending. */
  async readUrlTasks(urlHashes: readonly string[]): Promise<Array<UrlTaskDocument | undefined>> {
    const stored = urlHashes.length === 0 ? [] : await this.tables.urlTasks.getMany([...urlHashes]);
    return stored.map((task, index) => this.#pendingTasks.get(urlHashes[index]) ?? task);
  }

  /** Due-index entries of `domain` staged but not yet durable, in key order. */
  pendingDueEntries(domain: string): PrimaryKey[] {
    const entries = this.#pendingDueEntries.get(domain);
    if (entries === undefined) return [];
    return [...entries.values()].sort((left, right) =>
      left.encoded < right.encoded ? -1 : left.encoded > right.encoded ? 1 : 0,
    );
  }

  /**
   * Stages `changes` and applies them to the in-memory views at once: memory runs ahead of storage
   * by at most the batches being committed, which the overlay covers.
   */
  stage(batch: WriteBatch, changes: readonly UrlTaskChange[]): void {
    if (changes.length === 0) return;
    const addedDueKeys: Array<{ domain: string; key: PrimaryKey }> = [];
    for (const { previous, next } of changes) {
      const before = previous === undefined ? undefined : placementOf(previous);
      const after = placementOf(next);
      if (!isSamePlacement(before, after)) {
        if (after !== undefined) {
          batch.put(this.#indexes[after.indexName], after.key, EMPTY_INDEX_ENTRY, 'pointers');
          if (after.indexName === 'due') addedDueKeys.push({ domain: next.domain, key: after.key });
        }
        if (before !== undefined) batch.delete(this.#indexes[before.indexName], before.key);
      }
      batch.put(
        this.tables.urlTasks,
        next.url_hash,
        next,
        previous === undefined ? 'documents' : 'transitions',
      );
      this.#pendingTasks.set(next.url_hash, next);
      for (const listener of this.listeners) listener.onUrlTaskChanged(previous, next);
    }
    for (const { domain, key } of addedDueKeys) {
      let entries = this.#pendingDueEntries.get(domain);
      if (entries === undefined) {
        entries = new Map();
        this.#pendingDueEntries.set(domain, entries);
      }
      entries.set(key.encoded, key);
    }
    batch.afterDurable(() => {
      for (const { next } of changes) {
        if (this.#pendingTasks.get(next.url_hash) === next)
          this.#pendingTasks.delete(next.url_hash);
      }
      for (const { domain, key } of addedDueKeys) {
        const entries = this.#pendingDueEntries.get(domain);
        entries?.delete(key.encoded);
        if (entries?.size === 0) this.#pendingDueEntries.delete(domain);
      }
    });
  }

  /** Stages the removal of index entries a reader found stale (their url_task moved on). */
  stageStaleEntries(
    batch: WriteBatch,
    indexName: IndexPlacement['indexName'],
    keys: readonly PrimaryKey[],
  ): void {
    for (const key of keys) batch.delete(this.#indexes[indexName], key);
  }

  /**
   * Runs `stageInto` on a fresh batch and commits it: what a mutation hands to FrontierMutator
   * (its result, and the promise that its writes are durable).
   */
  async commitStaged<T>(stageInto: (batch: WriteBatch) => T | Promise<T>): Promise<Staged<T>> {
    const batch = this.batch();
    const result = await stageInto(batch);
    const { durable } = await batch.commit();
    return { result, durable };
  }

  /** Stages `changes` in a batch of their own, commits it and waits until it is durable. */
  async commit(changes: readonly UrlTaskChange[]): Promise<void> {
    const batch = this.batch();
    this.stage(batch, changes);
    await (
      await batch.commit()
    ).durable;
  }
}
