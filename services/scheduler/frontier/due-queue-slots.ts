import type { PrimaryKey } from '../../common/storage/primary-key';
import type { QueueHead } from './domain-schedule';
import type { UrlTaskDocument } from './frontier-documents';

/**
 * The domains' due queues of a store that holds url_task in memory (the resident store's heaps,
 * docs/resident-frontier.md step 5), read URL by URL: a slot stands for one stored url_task and its
 * due-index entry, which are never out of step — so the picker needs neither the entry's key nor a
 * check of the entry against its document, which the keyspace's queues cost it for every URL.
 *
 * A slot shows what is durable; the picker reads a domain this way only while nothing of it is
 * staged and not yet durable (FrontierStore.hasPendingDueEntries, hasPendingTask), and reads the
 * keyspace's way, merged with the staged entries, otherwise.
 */
export interface DueQueueSlots {
  /**
   * Visits the due URLs of `domain` in the due index's order (priority_rank, due_at, url_hash)
   * until `visit` answers false. `visit` must not change the store.
   */
  walk(domain: string, visit: (slot: number) => boolean): void;
  urlHashOf(slot: number): string;
  /** The url_task in `slot`, as stored (a fresh object). */
  taskOf(slot: number): UrlTaskDocument;
  /** Where the URL in `slot` stands in its queue, as its due-index key says. */
  headOf(slot: number): QueueHead;
  /** The URL's due-index key: where a read of the keyspace's way resumes after it. */
  keyOf(slot: number): PrimaryKey;
}
