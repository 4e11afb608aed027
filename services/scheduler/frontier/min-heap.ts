/** A binary min-heap ordered by `isBefore`. */
export class MinHeap<T> {
  #items: T[] = [];

  constructor(private readonly isBefore: (left: T, right: T) => boolean) {}

  get size(): number {
    return this.#items.length;
  }

  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const item = items[index];
      if (!this.isBefore(item, items[parent])) break;
      items[index] = items[parent];
      items[parent] = item;
      index = parent;
    }
  }

  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  /** Keeps only the items `keep` accepts (used to shed lazily-deleted entries). */
  retain(keep: (item: T) => boolean): void {
    this.#items = this.#items.filter(keep);
    for (let index = (this.#items.length >> 1) - 1; index >= 0; index -= 1) this.#siftDown(index);
  }

  #siftDown(start: number): void {
    const items = this.#items;
    let index = start;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < items.length && this.isBefore(items[left], items[smallest])) smallest = left;
      if (right < items.length && this.isBefore(items[right], items[smallest])) smallest = right;
      if (smallest === index) return;
      const item = items[index];
      items[index] = items[smallest];
      items[smallest] = item;
      index = smallest;
    }
  }
}
