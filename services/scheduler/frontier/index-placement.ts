import type { PrimaryKey } from '../../common/storage/primary-key';
import type { UrlTaskDocument } from './frontier-documents';
import type { UrlState } from './wire-types';
import { shardBucketOf } from './domain-shard';
import { dueIndexKey, revisitIndexKey, waitingIndexKey } from './frontier-tables';

/**
 * Where a URL stands in one ordering index. The fields are the parts its key is made of, so two
 * placements name the same entry exactly when they are at the same spot (isSamePlacement); the key
 * itself is built the first time it is read — on the embedded store with url_task held in memory
 * the indexes are derived, not written, and most placements are compared and never keyed.
 */
abstract class Placement {
  #key: PrimaryKey | undefined;

  constructor(protected readonly task: UrlTaskDocument) {}

  get domain(): string {
    return this.task.domain;
  }

  get urlHash(): string {
    return this.task.url_hash;
  }

  get key(): PrimaryKey {
    return (this.#key ??= this.buildKey());
  }

  protected abstract buildKey(): PrimaryKey;
}

/** `url_due_index`: a domain's URLs ready to serve, by rank, then due time. */
export class DuePlacement extends Placement {
  readonly indexName = 'due';

  get rank(): number {
    return this.task.priority_rank as number;
  }

  get dueAt(): string {
    return this.task.due_at;
  }

  isAtSameSpot(other: DuePlacement): boolean {
    return (
      this.urlHash === other.urlHash &&
      this.domain === other.domain &&
      this.rank === other.rank &&
      this.dueAt === other.dueAt
    );
  }

  protected buildKey(): PrimaryKey {
    return dueIndexKey(this.domain, this.rank, this.dueAt, this.urlHash);
  }
}

/** `url_revisit_index`: URLs due later, by due time, per shard bucket of their domain. */
export class RevisitPlacement extends Placement {
  readonly indexName = 'revisit';

  get dueAt(): string {
    return this.task.due_at;
  }

  /** The key's first part (domain-shard.ts). */
  get bucket(): string {
    return shardBucketOf(this.domain);
  }

  isAtSameSpot(other: RevisitPlacement): boolean {
    return (
      this.urlHash === other.urlHash && this.domain === other.domain && this.dueAt === other.dueAt
    );
  }

  protected buildKey(): PrimaryKey {
    return revisitIndexKey(this.domain, this.dueAt, this.urlHash);
  }
}

/** `url_waiting_index`: URLs waiting for their domain's rule. */
export class WaitingPlacement extends Placement {
  readonly indexName = 'waiting';

  isAtSameSpot(other: WaitingPlacement): boolean {
    return this.urlHash === other.urlHash && this.domain === other.domain;
  }

  protected buildKey(): PrimaryKey {
    return waitingIndexKey(this.domain, this.urlHash);
  }
}

/** Which ordering index holds a URL, and under which key. */
export type IndexPlacement = DuePlacement | RevisitPlacement | WaitingPlacement;

/**
 * Where a url_task must appear in the indexes, as a pure function of the task itself. Because the
 * placement is derived rather than remembered, a writer can always compute which entry to add and
 * which to remove, and a reader can tell a stale entry from a live one by recomputing it.
 */
export function placementOf(task: UrlTaskDocument): IndexPlacement | undefined {
  switch (indexNameOf(task.url_state, task.is_in_due_index, task.priority_rank !== null)) {
    case 'due':
      return new DuePlacement(task);
    case 'revisit':
      return new RevisitPlacement(task);
    case 'waiting':
      return new WaitingPlacement(task);
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
  // The parts a key is made of tell keys apart without building them.
  switch (left.indexName) {
    case 'due':
      return right.indexName === 'due' && left.isAtSameSpot(right);
    case 'revisit':
      return right.indexName === 'revisit' && left.isAtSameSpot(right);
    case 'waiting':
      return right.indexName === 'waiting' && left.isAtSameSpot(right);
  }
}
