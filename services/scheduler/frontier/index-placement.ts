import type { PrimaryKey } from '../../common/storage/primary-key';
import type { UrlTaskDocument } from './frontier-documents';
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
  switch (task.url_state) {
    case 'queued':
      if (task.is_in_due_index && task.priority_rank !== null) {
        return {
          indexName: 'due',
          key: dueIndexKey(task.domain, task.priority_rank, task.due_at, task.url_hash),
          rank: task.priority_rank,
        };
      }
      return {
        indexName: 'revisit',
        key: revisitIndexKey(task.domain, task.due_at, task.url_hash),
      };
    case 'done':
      return {
        indexName: 'revisit',
        key: revisitIndexKey(task.domain, task.due_at, task.url_hash),
      };
    case 'waiting_for_rule':
      return { indexName: 'waiting', key: waitingIndexKey(task.domain, task.url_hash) };
    case 'leased':
    case 'failed':
    case 'dropped':
      return undefined;
  }
}

export function isSamePlacement(
  left: IndexPlacement | undefined,
  right: IndexPlacement | undefined,
): boolean {
  if (left === undefined || right === undefined) return left === right;
  return left.indexName === right.indexName && left.key.equals(right.key);
}
