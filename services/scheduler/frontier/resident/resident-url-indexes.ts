import type { ResidentUrlTable } from './resident-url-table';
import { SHARD_BUCKET_COUNT, shardBucketOf } from '../domain-shard';
import type { UrlTaskDocument } from '../frontier-documents';
import { indexNameOf } from '../index-placement';
import type { UrlState } from '../wire-types';
import { builtHeapCapacity, SlotHeap, type SlotOrder } from './slot-heap';

/** Which ordering index a URL belongs in (index-placement.ts's placementOf, from its slot). */
export type ResidentPlacement = 'due' | 'revisit' | 'waiting' | 'none';

const POSITION_CHUNK_BITS = 16;
const POSITION_CHUNK_SLOTS = 1 << POSITION_CHUNK_BITS;
const POSITION_MASK = POSITION_CHUNK_SLOTS - 1;

/** Each slot's position in the heap that holds it (a slot is in one index at most). */
class HeapPositions {
  readonly #chunks: Int32Array[] = [];

  get(slot: number): number {
    return this.#chunks[slot >>> POSITION_CHUNK_BITS]?.[slot & POSITION_MASK] ?? -1;
  }

  set(slot: number, position: number): void {
    const index = slot >>> POSITION_CHUNK_BITS;
    while (this.#chunks.length <= index) {
      this.#chunks.push(new Int32Array(POSITION_CHUNK_SLOTS).fill(-1));
    }
    this.#chunks[index][slot & POSITION_MASK] = position;
  }
}

/** An index's order over the table's slots; every index keeps positions in the one HeapPositions. */
abstract class IndexOrder implements SlotOrder {
  constructor(
    protected readonly table: ResidentUrlTable,
    private readonly positions: HeapPositions,
  ) {}

  abstract compare(left: number, right: number): number;

  positionOf(slot: number): number {
    return this.positions.get(slot);
  }

  setPosition(slot: number, position: number): void {
    this.positions.set(slot, position);
  }
}

/** The due index's order within a domain: priority_rank, then due_at, then url_hash. */
class DueOrder extends IndexOrder {
  compare(left: number, right: number): number {
    const table = this.table;
    return (
      table.priorityRankOf(left) - table.priorityRankOf(right) ||
      table.dueAtMsOf(left) - table.dueAtMsOf(right) ||
      table.compareHashes(left, right)
    );
  }
}

/** Re-visits in due order, then url_hash. */
class RevisitOrder extends IndexOrder {
  compare(left: number, right: number): number {
    const table = this.table;
    return table.dueAtMsOf(left) - table.dueAtMsOf(right) || table.compareHashes(left, right);
  }
}

/** URLs waiting for their domain's rule, by url_hash (as the waiting index's keys sort). */
class WaitingOrder extends IndexOrder {
  compare(left: number, right: number): number {
    return this.table.compareHashes(left, right);
  }
}

/**
 * The three ordering indexes of url_task (CONTRACT.md §五: url_due_index, url_revisit_index,
 * url_waiting_index) for the resident url table (docs/resident-frontier.md, step 2): each URL in
 * the index its placement names, kept exactly — a URL is taken out of one and put into another as
 * its slot changes (the owner calls remove before and add after a put), never left behind as a
 * stale entry for readers to skip. Each is one heap per group of the keyspace index's keys: due
 * and waiting URLs per domain, re-visits per shard bucket of their domain (domain-shard.ts), each
 * heap in its index's key order — so a scan of the keyspace index and a walk of these heaps
 * answer the same keys in the same order (resident-index-reads.ts).
 */
export class ResidentUrlIndexes {
  readonly #positions = new HeapPositions();
  readonly #dueOrder: DueOrder;
  readonly #waitingOrder: WaitingOrder;
  readonly #revisitOrder: RevisitOrder;
  /*
   * Heaps by domain code and by shard bucket number — small dense integers, so arrays: a Map's
   * hashing and probing cost every put a lookup (and a 1M-URL start ~0.2 s).
   */
  readonly #dueByDomain: HeapsByGroup = [];
  readonly #waitingByDomain: HeapsByGroup = [];
  readonly #revisitsByBucket: HeapsByGroup = [];
  /** Each domain code's shard bucket number, computed once. */
  readonly #bucketByDomainCode: number[] = [];

  constructor(private readonly table: ResidentUrlTable) {
    this.#dueOrder = new DueOrder(table, this.#positions);
    this.#waitingOrder = new WaitingOrder(table, this.#positions);
    this.#revisitOrder = new RevisitOrder(table, this.#positions);
  }

  /** Where the URL in `slot` belongs, from its stored fields (placementOf's rules). */
  placementOf(slot: number): ResidentPlacement {
    const table = this.table;
    return placementFrom(
      table.urlStateOf(slot),
      table.isInDueIndex(slot),
      !Number.isNaN(table.priorityRankOf(slot)),
    );
  }

  /** Puts the URL in `slot` into the index its fields place it in (it must be in none). */
  add(slot: number): void {
    this.#heapOf(slot, this.placementOf(slot), true)?.add(slot);
  }

  /**
   * Puts slots 0 to `slotCount` - 1 into their indexes (which must hold none of them) — a table
   * read back from its snapshot. Each heap's slots are gathered by a counting sort on a number per
   * heap straight into one array, where each heap gets its part with room to grow
   * (builtHeapCapacity) and takes it as it is (SlotHeap.adoptUnordered: ordered when first used).
   * The snapshot holds a domain's slots scattered: inserting a million slots one by one, or
   * gathering them per heap in a Map of arrays, jumped from heap to heap for each (~0.9 s at 1M
   * URLs, ~0.3 s gathered and each heap built in order at once, in an array of its own). A
   * snapshot of 1.8M URLs was read in 0.83 s this way against 0.92 (medians of six alternating
   * starts): no 100,000 arrays made, no heap ordered before a lease or a write reaches it.
   */
  addAll(slotCount: number): void {
    const domainCount = this.table.domainCodeCount;
    // Heap numbers: a domain's due heap, then its waiting heap, then the shard buckets' re-visits.
    const heapNumberOf = (slot: number, placement: ResidentPlacement): number => {
      switch (placement) {
        case 'due':
          return this.#domainCodeOf(slot);
        case 'waiting':
          return domainCount + this.#domainCodeOf(slot);
        case 'revisit':
          return 2 * domainCount + this.#bucketOf(slot);
        default:
          return -1;
      }
    };
    const heapCount = 2 * domainCount + SHARD_BUCKET_COUNT;
    const heaps = new Array<SlotHeap | undefined>(heapCount);
    const heapNumbers = new Int32Array(slotCount);
    const sizes = new Int32Array(heapCount);
    for (let slot = 0; slot < slotCount; slot += 1) {
      const placement = this.placementOf(slot);
      const heapNumber = heapNumberOf(slot, placement);
      heapNumbers[slot] = heapNumber;
      if (heapNumber < 0) continue;
      sizes[heapNumber] += 1;
      heaps[heapNumber] ??= this.#heapOf(slot, placement, true);
    }
    const starts = new Int32Array(heapCount + 1);
    for (let heapNumber = 0; heapNumber < heapCount; heapNumber += 1) {
      const size = sizes[heapNumber];
      starts[heapNumber + 1] = starts[heapNumber] + (size === 0 ? 0 : builtHeapCapacity(size));
    }
    const gathered = new Int32Array(starts[heapCount]);
    const next = starts.slice(0, heapCount);
    for (let slot = 0; slot < slotCount; slot += 1) {
      const heapNumber = heapNumbers[slot];
      if (heapNumber >= 0) gathered[next[heapNumber]++] = slot;
    }
    heaps.forEach((heap, heapNumber) =>
      heap?.adoptUnordered(
        gathered.subarray(starts[heapNumber], starts[heapNumber + 1]),
        sizes[heapNumber],
      ),
    );
  }

  /** Takes the URL in `slot` out of the index it is in — before its fields change. */
  remove(slot: number): void {
    const placement = this.placementOf(slot);
    const heap = this.#heapOf(slot, placement, false);
    if (heap === undefined && placement !== 'none') {
      throw new RangeError(`slot ${slot} belongs in the ${placement} index but is in none`);
    }
    heap?.remove(slot);
  }

  /** The first `count` due URLs of `domain`, in serving order. */
  dueSlots(domain: string, count: number): number[] {
    return this.#domainHeap(this.#dueByDomain, domain)?.firstSlots(count) ?? [];
  }

  /** Due URLs of `domain` (live leases' included, as in the due index). */
  dueCount(domain: string): number {
    return this.#domainHeap(this.#dueByDomain, domain)?.size ?? 0;
  }

  /** The first `count` URLs of `domain` waiting for its rule, by url_hash. */
  waitingSlots(domain: string, count: number): number[] {
    return this.#domainHeap(this.#waitingByDomain, domain)?.firstSlots(count) ?? [];
  }

  /** The first `count` re-visits of shard bucket `bucket` (two hex digits), in due order. */
  revisitSlots(bucket: string, count: number): number[] {
    return this.#revisitsByBucket[bucketNumberOf(bucket)]?.firstSlots(count) ?? [];
  }

  /** URLs waiting for a re-visit or a retry. */
  get revisitCount(): number {
    let count = 0;
    for (const heap of this.#revisitsByBucket) count += heap?.size ?? 0;
    return count;
  }

  /**
   * Visits the URLs of one group of an index — a domain's due or waiting URLs, a shard bucket's
   * re-visits — in the keyspace index's key order, until `visit` answers false.
   */
  walk(index: ResidentIndexName, group: string, visit: (slot: number) => boolean): void {
    const heap =
      index === 'revisit'
        ? this.#revisitsByBucket[bucketNumberOf(group)]
        : this.#domainHeap(index === 'due' ? this.#dueByDomain : this.#waitingByDomain, group);
    heap?.walk(visit);
  }

  /** The groups of an index that hold any URL: domains, or shard buckets for re-visits. */
  groups(index: ResidentIndexName): string[] {
    if (index === 'revisit') {
      return groupsHoldingAny(this.#revisitsByBucket).map(bucketNameOf);
    }
    const heaps = index === 'due' ? this.#dueByDomain : this.#waitingByDomain;
    return groupsHoldingAny(heaps).map((code) => this.table.domainOfCode(code));
  }

  #domainHeap(heaps: HeapsByGroup, domain: string): SlotHeap | undefined {
    const code = this.table.domainCodeOf(domain);
    return code < 0 ? undefined : heaps[code];
  }

  #heapOf(slot: number, placement: ResidentPlacement, isCreated: boolean): SlotHeap | undefined {
    switch (placement) {
      case 'due':
        return this.#heapIn(this.#dueByDomain, this.#dueOrder, this.#domainCodeOf(slot), isCreated);
      case 'waiting':
        return this.#heapIn(
          this.#waitingByDomain,
          this.#waitingOrder,
          this.#domainCodeOf(slot),
          isCreated,
        );
      case 'revisit':
        return this.#heapIn(
          this.#revisitsByBucket,
          this.#revisitOrder,
          this.#bucketOf(slot),
          isCreated,
        );
      default:
        return undefined;
    }
  }

  #domainCodeOf(slot: number): number {
    return this.table.domainCodeOfSlot(slot);
  }

  #bucketOf(slot: number): number {
    const code = this.table.domainCodeOfSlot(slot);
    let bucket = this.#bucketByDomainCode[code];
    if (bucket === undefined) {
      bucket = bucketNumberOf(shardBucketOf(this.table.domainOf(slot)));
      this.#bucketByDomainCode[code] = bucket;
    }
    return bucket;
  }

  #heapIn(
    heaps: HeapsByGroup,
    order: SlotOrder,
    group: number,
    isCreated: boolean,
  ): SlotHeap | undefined {
    let heap = heaps[group];
    if (heap === undefined && isCreated) {
      heap = new SlotHeap(order);
      heaps[group] = heap;
    }
    return heap;
  }
}

export type ResidentIndexName = Exclude<ResidentPlacement, 'none'>;

/** Heaps by group number (a domain code, a shard bucket number); holes where none was made. */
type HeapsByGroup = Array<SlotHeap | undefined>;

/** The groups whose heap holds any URL, in group-number order. */
function groupsHoldingAny(heaps: HeapsByGroup): number[] {
  const groups: number[] = [];
  heaps.forEach((heap, group) => {
    if (heap !== undefined && heap.size > 0) groups.push(group);
  });
  return groups;
}

/** Where a document belongs (index-placement.ts's rule, its index only). */
export function placementOfDocument(task: UrlTaskDocument): ResidentPlacement {
  return placementFrom(task.url_state, task.is_in_due_index, task.priority_rank !== null);
}

function placementFrom(
  state: UrlState,
  isInDueIndex: boolean,
  hasRank: boolean,
): ResidentPlacement {
  return indexNameOf(state, isInDueIndex, hasRank) ?? 'none';
}

function bucketNumberOf(bucket: string): number {
  return Number.parseInt(bucket, 16);
}

function bucketNameOf(bucket: number): string {
  return bucket.toString(16).padStart(2, '0');
}
