import { builtHeapCapacity, SlotHeap, type SlotOrder } from './slot-heap';

/** Slots ordered by a key array the test changes only while a slot is out of the heap. */
class KeyOrder implements SlotOrder {
  readonly keys: number[] = [];
  readonly positions = new Map<number, number>();

  compare(left: number, right: number): number {
    return this.keys[left] - this.keys[right] || left - right;
  }

  positionOf(slot: number): number {
    return this.positions.get(slot) ?? -1;
  }

  setPosition(slot: number, position: number): void {
    this.positions.set(slot, position);
  }
}

describe('SlotHeap', () => {
  it('keeps its order through adds and removals anywhere, and lists its first slots in order', () => {
    const order = new KeyOrder();
    const heap = new SlotHeap(order, 1);
    const members = new Set<number>();
    const sorted = () => [...members].sort((left, right) => order.compare(left, right));
    for (let step = 0; step < 20_000; step += 1) {
      const slot = Math.floor(Math.random() * 500);
      if (members.has(slot)) {
        heap.remove(slot);
        members.delete(slot);
        expect(order.positionOf(slot)).toBe(-1);
      } else {
        order.keys[slot] = Math.floor(Math.random() * 50); // ties broken by slot
        heap.add(slot);
        members.add(slot);
      }
      if (step % 997 === 0) {
        const expected = sorted();
        expect(heap.size).toBe(expected.length);
        expect(heap.first).toBe(expected[0] ?? -1);
        for (const count of [0, 1, 2, 3, 7, expected.length + 5]) {
          expect(heap.firstSlots(count)).toEqual(expected.slice(0, count));
        }
      }
    }
    const expected = sorted();
    const drained: number[] = [];
    while (heap.size > 0) {
      drained.push(heap.first);
      heap.remove(heap.first);
    }
    expect(drained).toEqual(expected);
  });

  it('builds itself from many slots at once, each slot where removing it finds it', () => {
    for (const count of [0, 1, 2, 3, 10, 1000]) {
      const order = new KeyOrder();
      const slots = Array.from({ length: count }, (_, slot) => slot);
      for (const slot of slots) order.keys[slot] = Math.floor(Math.random() * 50);
      const heap = new SlotHeap(order);
      const array = new Int32Array(builtHeapCapacity(count));
      array.set(slots);
      heap.adoptUnordered(array, count);
      const expected = [...slots].sort((left, right) => order.compare(left, right));
      expect(heap.firstSlots(count)).toEqual(expected);
      // Every position recorded: take each slot out from wherever it sits, in random order.
      const removed = [...slots].sort(() => Math.random() - 0.5).slice(0, count >> 1);
      for (const slot of removed) heap.remove(slot);
      expect(heap.firstSlots(count)).toEqual(expected.filter((slot) => !removed.includes(slot)));
      // Back onto a heap that holds some, one by one.
      for (const slot of removed) heap.add(slot);
      expect(heap.firstSlots(count)).toEqual(expected);
    }
  });

  it('keeps room to grow after building itself from many slots at once', () => {
    for (const count of [1, 10, 1000]) {
      const order = new KeyOrder();
      const heap = new SlotHeap(order);
      const array = new Int32Array(builtHeapCapacity(count));
      array.set(Array.from({ length: count }, (_, slot) => slot));
      heap.adoptUnordered(array, count);
      const capacity = heap.capacity;
      expect(capacity).toBeGreaterThanOrEqual(count + Math.max(4, count >> 1));
      // A domain's next URLs after a start land without growing its heap.
      for (let slot = count; slot < capacity; slot += 1) heap.add(slot);
      expect(heap.capacity).toBe(capacity);
      expect(heap.size).toBe(capacity);
      heap.add(capacity);
      expect(heap.capacity).toBe(2 * capacity);
    }
  });

  it('holds no array until its first slot, then room for a few', () => {
    const order = new KeyOrder();
    const heap = new SlotHeap(order);
    expect(heap.capacity).toBe(0);
    expect(heap.first).toBe(-1);
    expect(heap.firstSlots(3)).toEqual([]);
    order.keys[7] = 1;
    heap.add(7);
    expect(heap.capacity).toBe(4);
    expect(heap.first).toBe(7);
  });

  it('walks in order inside another walk, and after a walk its visit ended by throwing', () => {
    const order = new KeyOrder();
    const [outer, inner] = [new SlotHeap(order), new SlotHeap(order)];
    for (let slot = 0; slot < 40; slot += 1) {
      order.keys[slot] = (slot * 7) % 40;
      (slot % 2 === 0 ? outer : inner).add(slot);
    }
    const byKey = (slots: number[]) => [...slots].sort((left, right) => order.compare(left, right));
    const evens = byKey(Array.from({ length: 20 }, (_, index) => 2 * index));
    const odds = byKey(Array.from({ length: 20 }, (_, index) => 2 * index + 1));
    const visited: number[] = [];
    const innerWalks: number[][] = [];
    outer.walk((slot) => {
      visited.push(slot);
      innerWalks.push(inner.firstSlots(5));
      return true;
    });
    expect(visited).toEqual(evens);
    expect(innerWalks).toEqual(evens.map(() => odds.slice(0, 5)));
    expect(() =>
      outer.walk(() => {
        throw new Error('visit failed');
      }),
    ).toThrow('visit failed');
    expect(inner.firstSlots(40)).toEqual(odds);
  });

  it('refuses to remove a slot it does not hold', () => {
    const order = new KeyOrder();
    const heap = new SlotHeap(order);
    order.keys[1] = 1;
    heap.add(1);
    expect(() => heap.remove(2)).toThrow(RangeError);
    expect(heap.firstSlots(5)).toEqual([1]);
  });

  it('takes its slots in any order in a view of a shared array, and orders them when first used', () => {
    let compareCount = 0;
    class CountingOrder extends KeyOrder {
      override compare(left: number, right: number): number {
        compareCount += 1;
        return super.compare(left, right);
      }
    }
    const order = new CountingOrder();
    for (let slot = 0; slot < 60; slot += 1) order.keys[slot] = (slot * 37) % 60;
    // Two heaps in one array, each with room for ten more: slots 0–29 and 30–59, unordered.
    const shared = new Int32Array(80);
    shared.set(Array.from({ length: 30 }, (_, index) => 29 - index));
    shared.set(
      Array.from({ length: 30 }, (_, index) => 30 + index),
      40,
    );
    const [low, high] = [new SlotHeap(order), new SlotHeap(order)];
    low.adoptUnordered(shared.subarray(0, 40), 30);
    high.adoptUnordered(shared.subarray(40, 80), 30);
    expect(compareCount).toBe(0);
    expect([low.size, low.capacity, high.size, high.capacity]).toEqual([30, 40, 30, 40]);
    const byKey = (slots: number[]) => [...slots].sort((left, right) => order.compare(left, right));
    const lows = byKey(Array.from({ length: 30 }, (_, slot) => slot));
    const highs = byKey(Array.from({ length: 30 }, (_, slot) => 30 + slot));

    // A removal before any read finds the slot where ordering put it.
    high.remove(45);
    expect(order.positionOf(45)).toBe(-1);
    expect(high.firstSlots(30)).toEqual(highs.filter((slot) => slot !== 45));
    // Filling one heap's room leaves the other's part of the array alone; past it, it grows.
    for (let slot = 60; slot < 75; slot += 1) {
      order.keys[slot] = slot - 70;
      low.add(slot);
    }
    expect(low.capacity).toBe(80);
    expect(low.firstSlots(45)).toEqual(
      byKey([...lows, ...Array.from({ length: 15 }, (_, i) => 60 + i)]),
    );
    expect(high.firstSlots(30)).toEqual(highs.filter((slot) => slot !== 45));
    expect(high.first).toBe(highs[0] === 45 ? highs[1] : highs[0]);

    expect(() => low.adoptUnordered(new Int32Array(4), 1)).toThrow(/only an empty heap/);
    expect(() => new SlotHeap(order).adoptUnordered(new Int32Array(4), 5)).toThrow(RangeError);
    const single = new SlotHeap(order);
    single.adoptUnordered(Int32Array.of(7, 0, 0), 1);
    single.remove(7);
    expect(single.size).toBe(0);
  });
});
