import { MinHeap } from '../min-heap';

/** How a heap orders its slots, and where it remembers each slot's position. */
export interface SlotOrder {
  /** Negative when `left` comes first, positive when `right` does; never 0 for two slots. */
  compare(left: number, right: number): number;
  positionOf(slot: number): number;
  setPosition(slot: number, position: number): void;
}

const NO_POSITION = -1;
/** The array of a heap that has none yet (never written: its length is 0). */
const NO_SLOTS = new Int32Array(0);
/** The least room a heap gets when it grows or is built: a few slots. */
const MIN_GROWN_CAPACITY = 4;

/**
 * The array length a heap built from `size` slots at once gets: room for half as many again.
 * Sized exactly, every domain's due heap grew (a new typed array and a copy) at its first add after
 * a start, and with 100,000 domains that was most adds of a bench row — 66 ms of a 2.4 s profile at
 * 1M URLs, 16 workers.
 */
export function builtHeapCapacity(size: number): number {
  return size + Math.max(MIN_GROWN_CAPACITY, size >> 1);
}

/**
 * A binary min-heap of slots in typed arrays, ordered by `order`, each slot's position kept by the
 * order's owner so that any slot leaves in O(log n) — a URL leaves its queue when it is leased,
 * re-ranked, fetched or parked, not only when it is first. Also answers the first few slots in
 * order without taking them out (firstSlots): a lease looks past the entries live leases hold.
 */
export class SlotHeap {
  #slots: Int32Array;
  #size = 0;
  /**
   * False while the slots it was built from are not in heap order yet (adoptUnordered): they are
   * put in order, and their positions recorded, when it is first read or changed. A start builds
   * one heap per domain, and a crawl reads most of them seconds later, some never.
   */
  #isOrdered = true;

  /**
   * Without an initial capacity it holds no array until its first add or adoptUnordered: a start
   * builds one heap per domain with adoptUnordered, which brings its own (a first array of 4 was
   * one more typed array per heap, thrown away at once).
   */
  constructor(
    private readonly order: SlotOrder,
    initialCapacity = 0,
  ) {
    this.#slots = initialCapacity === 0 ? NO_SLOTS : new Int32Array(initialCapacity);
  }

  get size(): number {
    return this.#size;
  }

  /** How many slots it holds before it grows (a new array and a copy). */
  get capacity(): number {
    return this.#slots.length;
  }

  /** The first slot, or -1 when empty. */
  get first(): number {
    this.#putInOrder();
    return this.#size === 0 ? -1 : this.#slots[0];
  }

  add(slot: number): void {
    this.#putInOrder();
    if (this.#size === this.#slots.length) {
      const grown = new Int32Array(Math.max(MIN_GROWN_CAPACITY, this.#slots.length * 2));
      grown.set(this.#slots);
      this.#slots = grown;
    }
    this.#size += 1;
    this.#siftUp(this.#size - 1, slot);
  }

  /**
   * Takes `slots` as its array, whose first `size` entries are its slots in any order (the heap
   * must be empty): a store read back from its snapshot builds every heap so, in views of one
   * array (ResidentUrlIndexes.addAll). They are put in heap order bottom-up — O(n) comparisons,
   * each slot placed once — when the heap is first read or changed, not now.
   */
  adoptUnordered(slots: Int32Array, size: number): void {
    if (this.#size > 0) throw new RangeError('only an empty heap adopts slots');
    if (!(size >= 0 && size <= slots.length)) {
      throw new RangeError(`${size} slots do not fit an array of ${slots.length}`);
    }
    this.#slots = slots;
    this.#size = size;
    this.#isOrdered = size < 2;
    if (size === 1) this.order.setPosition(slots[0], 0);
  }

  #putInOrder(): void {
    if (this.#isOrdered) return;
    this.#isOrdered = true;
    for (let position = (this.#size >> 1) - 1; position >= 0; position -= 1) {
      this.#siftDown(position, this.#slots[position]);
    }
    // The positions of the leaves, which no sift moved.
    for (let position = this.#size >> 1; position < this.#size; position += 1) {
      this.order.setPosition(this.#slots[position], position);
    }
  }

  /** Takes `slot` out (it must be in this heap). */
  remove(slot: number): void {
    this.#putInOrder();
    const position = this.order.positionOf(slot);
    if (!(position >= 0 && position < this.#size && this.#slots[position] === slot)) {
      throw new RangeError(`slot ${slot} is not in this heap`);
    }
    this.order.setPosition(slot, NO_POSITION);
    this.#size -= 1;
    if (position === this.#size) return;
    const last = this.#slots[this.#size];
    // The last slot fills the hole, then moves whichever way its order says.
    if (position > 0 && this.order.compare(last, this.#slots[(position - 1) >> 1]) < 0) {
      this.#siftUp(position, last);
    } else {
      this.#siftDown(position, last);
    }
  }

  /** The first `count` slots in order (fewer when the heap holds fewer), the heap unchanged. */
  firstSlots(count: number): number[] {
    const taken: number[] = [];
    if (count <= 0) return taken;
    this.walk((slot) => taken.push(slot) < count);
    return taken;
  }

  /**
   * Visits the slots in order, the heap unchanged, until `visit` answers false: a walk down from
   * the root that keeps the candidates — the children of the slots visited — in a small heap of
   * their own, so the first k cost O(k log k) whatever the heap's size (a lease asks for a few, a
   * scan for up to a page).
   */
  walk(visit: (slot: number) => boolean): void {
    this.#putInOrder();
    if (this.#size === 0) return;
    const slots = this.#slots;
    const candidates = new MinHeap<number>(
      (left, right) => this.order.compare(slots[left], slots[right]) < 0,
    );
    candidates.push(0);
    for (let position = candidates.pop(); position !== undefined; position = candidates.pop()) {
      if (!visit(slots[position])) return;
      const child = 2 * position + 1;
      if (child < this.#size) candidates.push(child);
      if (child + 1 < this.#size) candidates.push(child + 1);
    }
  }

  /** Every slot, in no particular order (for checks and counts). */
  *slots(): Generator<number> {
    for (let position = 0; position < this.#size; position += 1) yield this.#slots[position];
  }

  #siftUp(start: number, slot: number): void {
    let position = start;
    while (position > 0) {
      const parent = (position - 1) >> 1;
      const parentSlot = this.#slots[parent];
      if (this.order.compare(slot, parentSlot) >= 0) break;
      this.#place(position, parentSlot);
      position = parent;
    }
    this.#place(position, slot);
  }

  #siftDown(start: number, slot: number): void {
    let position = start;
    for (;;) {
      let child = 2 * position + 1;
      if (child >= this.#size) break;
      if (
        child + 1 < this.#size &&
        this.order.compare(this.#slots[child + 1], this.#slots[child]) < 0
      ) {
        child += 1;
      }
      if (this.order.compare(this.#slots[child], slot) >= 0) break;
      this.#place(position, this.#slots[child]);
      position = child;
    }
    this.#place(position, slot);
  }

  #place(position: number, slot: number): void {
    this.#slots[position] = slot;
    this.order.setPosition(slot, position);
  }
}
