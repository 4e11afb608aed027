import type { ResidentUrlTable } from './resident-url-table';
import { SlotHeap, type SlotOrder } from './slot-heap';

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
 * stale entry for readers to skip. Due and waiting queues are one heap per domain, the re-visits
 * one heap for the process: re-visits come due in due_at order across shard buckets, where the
 * keyspace layout orders them per bucket for the split across processes
 * (docs/frontier-sharding.md), which a process holding every bucket does not need.
 */
export class ResidentUrlIndexes {
  readonly #positions = new HeapPositions();
  readonly #dueOrder: DueOrder;
  readonly #waitingOrder: WaitingOrder;
  readonly #dueByDomain = new Map<number, SlotHeap>();
  readonly #waitingByDomain = new Map<number, SlotHeap>();
  readonly #revisits: SlotHeap;

  constructor(private readonly table: ResidentUrlTable) {
    this.#dueOrder = new DueOrder(table, this.#positions);
    this.#waitingOrder = new WaitingOrder(table, this.#positions);
    this.#revisits = new SlotHeap(new RevisitOrder(table, this.#positions), 1024);
  }

  /** Where the URL in `slot` belongs, from its stored fields (placementOf's rules). */
  placementOf(slot: number): ResidentPlacement {
    switch (this.table.urlStateOf(slot)) {
      case 'queued':
        return this.table.isInDueIndex(slot) && !Number.isNaN(this.table.priorityRankOf(slot))
          ? 'due'
          : 'revisit';
      case 'done':
        return 'revisit';
      case 'waiting_for_rule':
        return 'waiting';
      default:
        return 'none';
    }
  }

  /** Puts the URL in `slot` into the index its fields place it in (it must be in none). */
  add(slot: number): void {
    this.#heapOf(slot, this.placementOf(slot), true)?.add(slot);
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

  /** Up to `limit` re-visits due at `nowMs` or before, earliest first. */
  revisitsDueBy(nowMs: number, limit: number): number[] {
    const due: number[] = [];
    for (const slot of this.#revisits.firstSlots(limit)) {
      if (this.table.dueAtMsOf(slot) > nowMs) break;
      due.push(slot);
    }
    return due;
  }

  /** URLs waiting for a re-visit or a retry. */
  get revisitCount(): number {
    return this.#revisits.size;
  }

  #domainHeap(heaps: Map<number, SlotHeap>, domain: string): SlotHeap | undefined {
    const code = this.table.domainCodeOf(domain);
    return code < 0 ? undefined : heaps.get(code);
  }

  #heapOf(slot: number, placement: ResidentPlacement, isCreated: boolean): SlotHeap | undefined {
    switch (placement) {
      case 'due':
        return this.#domainHeapOfSlot(this.#dueByDomain, this.#dueOrder, slot, isCreated);
      case 'waiting':
        return this.#domainHeapOfSlot(this.#waitingByDomain, this.#waitingOrder, slot, isCreated);
      case 'revisit':
        return this.#revisits;
      default:
        return undefined;
    }
  }

  #domainHeapOfSlot(
    heaps: Map<number, SlotHeap>,
    order: SlotOrder,
    slot: number,
    isCreated: boolean,
  ): SlotHeap | undefined {
    const code = this.table.domainCodeOfSlot(slot);
    let heap = heaps.get(code);
    if (heap === undefined && isCreated) {
      heap = new SlotHeap(order);
      heaps.set(code, heap);
    }
    return heap;
  }
}
