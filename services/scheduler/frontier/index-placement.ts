import type { PrimaryKey } from '../../common/storage/primary-key';
import type { UrlTaskDocument } from './frontier-documents';
import type { UrlState } from './wire-types';
import { dueIndexKey, revisitIndexKey, waitingIndexKey } from './frontier-tables';

/** Which ordering index holds a URL, and under which key. */
export type IndexPlacement =
  | { indexName: 'due'; key: PrimaryKey; rank: number }
  | { indexName: 'revisit'; key: PrimaryKey }
  | { indexName: 'waiting'; key: PrimaryKey };

/**
 * Where a url_task must appear in the indexes, as a pure function of the task itself. Because the
 * placement is derived rather than remembered, a writer can always compute which entry to add and
 * which to remove, and a reader can tell a stale entry from a live one by recomputing it.
 */
export function placementOf(task: UrlTaskDocument): IndexPlacement | undefined {
  switch (indexNameOf(task.url_state, task.is_in_due_index, task.priority_rank !== null)) {
    case 'due':
      return {
        indexName: 'due',
        key: dueIndexKey(task.domain, task.priority_rank as number, task.due_at, task.url_hash),
        rank: task.priority_rank as number,
      };
    case 'revisit':
      return {
        indexName: 'revisit',
        key: revisitIndexKey(task.domain, task.due_at, task.url_hash),
      };
    case 'waiting':
      return { indexName: 'waiting', key: waitingIndexKey(task.domain, task.url_hash) };
    case undefined:
      return undefined;
  }
}

/**
 * The rule behind placementOf, on the three fields it reads: which index holds a URL, if any. The
 * resident store applies it to a slot's columns (resident-url-indexes.ts) without a document.
 */
export function indexNameOf(
  state: UrlState,
  isInDueIndex: boolean,
  hasPriorityRank: boolean,
): IndexPlacement['indexName'] | undefined {
  switch (state) {
    case 'queued':
      return isInDueIndex && hasPriorityRank ? 'due' : 'revisit';
    case 'done':
      return 'revisit';
    case 'waiting_for_rule':
      return 'waiting';
    case 'leased':
    case 'failed':
    case 'dropped':
      return undefined;
  }
}

/**
 * Whether `leased`, stored, sits where `source` does: `source` is in the due index at `placement`
 * and `leased` is the same URL with the same domain, rank and due time (a lease of it, whose
 * stored form is `source`'s). Saves building the due key again for every URL leased.
 */
export function isLeaseOfDueEntry(
  source: UrlTaskDocument,
  placement: IndexPlacement | undefined,
  leased: UrlTaskDocument,
): boolean {
  return (
    placement?.indexName === 'due' &&
    source.url_hash === leased.url_hash &&
    source.domain === leased.domain &&
    source.priority_rank === leased.priority_rank &&
    source.due_at === leased.due_at
  );
}

export function isSamePlacement(
  left: IndexPlacement | undefined,
  right: IndexPlacement | undefined,
): boolean {
  if (left === undefined || right === undefined) return left === right;
  return left.indexName === right.indexName && left.key.equals(right.key);
}
