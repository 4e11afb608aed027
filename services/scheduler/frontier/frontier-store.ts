import { setImmediate } from 'node:timers/promises';
import type { KeyspaceTable } from '../../common/storage/keyspace-table';
import type { PrimaryKey } from '../../common/storage/primary-key';
import { storedFormOf, type IndexEntryDocument, type UrlTaskDocument } from './frontier-documents';
import { EMPTY_INDEX_ENTRY, type FrontierTables } from './frontier-tables';
import {
  isLeaseOfDueEntry,
  isSamePlacement,
  placementOf,
  type IndexPlacement,
} from './index-placement';
import { KnownUrlSet, type KnownUrlTable } from './known-url-set';
import type { LeaseBook } from './lease-book';
import { leasedBy } from './url-task-transitions';
import type { WriteBatch } from './write-batch';

/**
 * url_task keys read per step of loadKnownUrls: each step holds the event loop (LMDB reads do not
 * yield), so it is kept to a few milliseconds; requests are served between steps.
 */
const KNOWN_URL_PAGE_SIZE = 2000;

/** A URL the frontier holds, looked up without reading its document (see lookUpUrlTasks). */
export const KNOWN_URL = 'known_url' as const;

/** One url_task change: `previous` is what the writer read (undefined for a new URL). */
export interface UrlTaskChange {
  previous: UrlTaskDocument | undefined;
  next: UrlTaskDocument;
}

/**
 * A change with where the URL stands in the indexes before and after, as the frontier sees it
 * (a leased URL is in none: it is out of its queue while leased), computed once and shared.
 */
export interface PlacedChange extends UrlTaskChange {
  before: IndexPlacement | undefined;
  after: IndexPlacement | undefined;
  /** The url_task document is written (every change but taking a URL into a lease). */
  isStored: boolean;
}

/** In-memory views (counters, per-domain schedule) that follow every staged url_task change. */
export interface UrlTaskChangeListener {
  onUrlTaskChanged(change: PlacedChange): void;
}

export interface FrontierStoreDependencies {
  tables: FrontierTables;
  /**
   * The index tables drop their writes: their owner derives them from url_task (url_task held in
   * memory, docs/resident-frontier.md), so no index entry is written or keyed here.
   */
  areIndexesDerived: boolean;
  leases: LeaseBook;
  listeners: readonly UrlTaskChangeListener[];
}

/**
 * The only writer of url_task and its three ordering indexes, and the overlay that lets a mutation
 * see the writes of earlier mutations whose commits are not durable yet (see FrontierMutator):
 * url_task documents by hash, and due-index entries added per domain. The documents it hands out
 * are the frontier's view: a URL held by a live lease reads as `leased` (LeaseBook), whatever its
 * stored document says.
 *
 * A change is staged in the order that keeps every intermediate state recoverable without a
 * multi-key transaction (see WriteBatch): the new index entry as a pointer, the url_task as the
 * document, the old entry as cleanup. A crash between phases never leaves a URL that no index points
 * to — it would never be served again — at worst a stale entry, which readers re-check against
 * url_task and remove.
 */
export class FrontierStore {
  readonly #indexes: Record<IndexPlacement['indexName'], KeyspaceTable<IndexEntryDocument>>;
  /** url_tasks staged but not yet durable, as stored. */
  readonly #pendingTasks = new Map<string, UrlTaskDocument>();
  /** url_due_index entries staged but not yet durable, per domain (keyed when read). */
  readonly #pendingDueEntries: PendingEntries = new Map();
  /** url_revisit_index entries staged but not yet durable, per shard bucket. */
  readonly #pendingRevisitEntries: PendingEntries = new Map();
  /**
   * Every url_hash staged since this process started, plus — once loadKnownUrls has read url_task
   * through — every one stored before: from then on a presence check reads no storage.
   */
  readonly #knownUrls = new KnownUrlSet();
  #isKnownUrlSetComplete = false;

  constructor(private readonly dependencies: FrontierStoreDependencies) {
    const { tables } = dependencies;
    this.#indexes = {
      due: tables.dueIndex,
      revisit: tables.revisitIndex,
      waiting: tables.waitingIndex,
    };
  }

  /** url_tasks as the frontier sees them: staged versions first, leased ones as leased. */
  async readUrlTasks(urlHashes: readonly string[]): Promise<Array<UrlTaskDocument | undefined>> {
    if (urlHashes.length === 0) return [];
    const stored = await this.dependencies.tables.urlTasks.getMany(urlHashes as string[]);
    const leases = this.dependencies.leases;
    for (let index = 0; index < stored.length; index += 1) {
      const urlHash = urlHashes[index];
      const task = this.#pendingTasks.get(urlHash) ?? stored[index];
      stored[index] =
        task !== undefined && leases.holderOf(urlHash) !== undefined ? leasedBy(task) : task;
    }
    return stored;
  }

  /**
   * Which of `urlHashes` the frontier holds: the document where `isDocumentNeeded` says so, else
   * only KNOWN_URL for one that exists — a presence check decodes nothing.
   */
  async lookUpUrlTasks(
    urlHashes: readonly string[],
    isDocumentNeeded: (index: number) => boolean,
  ): Promise<Array<UrlTaskDocument | typeof KNOWN_URL | undefined>> {
    const found = new Array<UrlTaskDocument | typeof KNOWN_URL | undefined>(urlHashes.length);
    const documentIndexes: number[] = [];
    const presenceIndexes: number[] = [];
    urlHashes.forEach((urlHash, index) => {
      if (isDocumentNeeded(index)) documentIndexes.push(index);
      else if (this.#pendingTasks.has(urlHash)) found[index] = KNOWN_URL;
      else presenceIndexes.push(index);
    });
    const documents = await this.readUrlTasks(documentIndexes.map((index) => urlHashes[index]));
    documentIndexes.forEach((index, position) => (found[index] = documents[position]));
    const isPresent = this.#isKnownUrlSetComplete
      ? presenceIndexes.map((index) => this.#knownUrls.has(urlHashes[index]))
      : await this.dependencies.tables.urlTasks.hasMany(
          presenceIndexes.map((index) => urlHashes[index]),
        );
    presenceIndexes.forEach((index, position) => {
      if (isPresent[position]) found[index] = KNOWN_URL;
    });
    return found;
  }

  /**
   * Reads every url_hash stored in url_task into memory, a page at a time between requests (the
   * frontier serves meanwhile; presence checks read storage until the last page is in). URLs staged
   * meanwhile are added by stage(), so nothing stored before or after is missed. Resolves to how
   * many were read, or undefined when `isStopping` ended it early.
   */
  async loadKnownUrls(isStopping: () => boolean): Promise<number | undefined> {
    let after: PrimaryKey | undefined;
    let readCount = 0;
    for (;;) {
      if (isStopping()) return undefined;
      const page = await this.dependencies.tables.urlTasks.scanKeys({
        after,
        limit: KNOWN_URL_PAGE_SIZE,
      });
      // A url_hash is lowercase hex, which primary-key encoding leaves as it is: no decoding.
      for (const key of page.keys) this.#knownUrls.add(key.encoded);
      readCount += page.keys.length;
      if (page.nextAfter === null) break;
      after = page.nextAfter;
      // LMDB reads resolve without yielding: give waiting requests their turn between pages.
      await setImmediate();
    }
    this.#isKnownUrlSetComplete = true;
    return readCount;
  }

  /** The known-URL set's tables, for a reader on another thread (KnownUrlSet.watchTables). */
  watchKnownUrlTables(listener: (table: KnownUrlTable) => void): void {
    this.#knownUrls.watchTables(listener);
  }

  /** The in-memory url_hash set (its size and bytes, for the log and metrics). */
  get knownUrls(): { size: number; byteCount: number; isComplete: boolean } {
    return {
      size: this.#knownUrls.size,
      byteCount: this.#knownUrls.byteCount,
      isComplete: this.#isKnownUrlSetComplete,
    };
  }

  /** Whether a change of `urlHash` is staged but not yet durable (storage does not show it yet). */
  hasPendingTask(urlHash: string): boolean {
    return this.#pendingTasks.has(urlHash);
  }

  /** Whether due-index entries of `domain` are staged but not yet durable. */
  hasPendingDueEntries(domain: string): boolean {
    return this.#pendingDueEntries.has(domain);
  }

  /** Due-index entries of `domain` staged but not yet durable, in key order. */
  pendingDueEntries(domain: string): PrimaryKey[] {
    return sortedKeys(this.#pendingDueEntries.get(domain));
  }

  /** Revisit-index entries of shard bucket `bucket` staged but not yet durable, in key order. */
  pendingRevisitEntries(bucket: string): PrimaryKey[] {
    return sortedKeys(this.#pendingRevisitEntries.get(bucket));
  }

  /**
   * Stages `changes` and applies them to the in-memory views at once: memory runs ahead of storage
   * by at most the commits being written, which the overlay covers.
   */
  stage(batch: WriteBatch, changes: readonly UrlTaskChange[]): void {
    if (changes.length === 0) return;
    const { tables, listeners, areIndexesDerived } = this.dependencies;
    const added: Array<{ pending: PendingEntries; group: string; placement: IndexPlacement }> = [];
    const storedTasks: UrlTaskDocument[] = [];
    for (const { previous, next } of changes) {
      const before = previous === undefined ? undefined : placementOf(previous);
      const after = placementOf(next);
      // The index entries mirror the stored documents: a leased URL keeps its due entry (the lease
      // record holds it; readers skip held URLs), so taking or re-queueing one writes no entry.
      const storedBefore =
        previous === undefined
          ? undefined
          : previous.url_state === 'leased'
            ? placementOf(storedFormOf(previous))
            : before;
      const storedAfter =
        next.url_state !== 'leased'
          ? after
          : previous !== undefined && isLeaseOfDueEntry(previous, before, next)
            ? before
            : placementOf(storedFormOf(next));
      if (!isSamePlacement(storedBefore, storedAfter)) {
        if (storedAfter !== undefined) {
          // Derived indexes drop their writes: their entries are not keyed at all.
          if (!areIndexesDerived) {
            batch.put(
              this.#indexes[storedAfter.indexName],
              storedAfter.key,
              EMPTY_INDEX_ENTRY,
              'pointers',
            );
          }
          if (storedAfter.indexName === 'due') {
            added.push({
              pending: this.#pendingDueEntries,
              group: next.domain,
              placement: storedAfter,
            });
          } else if (storedAfter.indexName === 'revisit') {
            added.push({
              pending: this.#pendingRevisitEntries,
              group: storedAfter.bucket,
              placement: storedAfter,
            });
          }
        }
        if (storedBefore !== undefined && !areIndexesDerived) {
          batch.delete(this.#indexes[storedBefore.indexName], storedBefore.key);
        }
      }
      // Taking a URL into a lease changes nothing stored: the lease record holds it.
      const isStored = next.url_state !== 'leased';
      if (isStored) {
        batch.put(
          tables.urlTasks,
          next.url_hash,
          next,
          previous === undefined ? 'documents' : 'transitions',
        );
        this.#pendingTasks.set(next.url_hash, next);
        storedTasks.push(next);
        if (previous === undefined) this.#knownUrls.add(next.url_hash);
      }
      const placed: PlacedChange = { previous, next, before, after, isStored };
      for (const listener of listeners) listener.onUrlTaskChanged(placed);
    }
    for (const { pending, group, placement } of added) {
      let entries = pending.get(group);
      if (entries === undefined) {
        entries = new Set();
        pending.set(group, entries);
      }
      entries.add(placement);
    }
    batch.afterDurable(() => {
      for (const task of storedTasks) {
        if (this.#pendingTasks.get(task.url_hash) === task)
          this.#pendingTasks.delete(task.url_hash);
      }
      for (const { pending, group, placement } of added) {
        const entries = pending.get(group);
        entries?.delete(placement);
        if (entries?.size === 0) pending.delete(group);
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

  /** The table behind an index (for scans). */
  indexTable(indexName: IndexPlacement['indexName']): KeyspaceTable<IndexEntryDocument> {
    return this.#indexes[indexName];
  }
}

/** Index entries staged and not yet durable, per group (a domain, a shard bucket). */
type PendingEntries = Map<string, Set<IndexPlacement>>;

/** The keys of staged entries, each once (a URL staged twice at one spot), in key order. */
function sortedKeys(entries: ReadonlySet<IndexPlacement> | undefined): PrimaryKey[] {
  if (entries === undefined) return [];
  const byEncoded = new Map<string, PrimaryKey>();
  for (const { key } of entries) byEncoded.set(key.encoded, key);
  return [...byEncoded.values()].sort((left, right) =>
    left.encoded < right.encoded ? -1 : left.encoded > right.encoded ? 1 : 0,
  );
}
