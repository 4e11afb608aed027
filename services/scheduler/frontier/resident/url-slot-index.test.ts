import { randomBytes } from 'node:crypto';
import { UrlSlotIndex, type SlotHashes } from './url-slot-index';

/** Four random words per slot, as the resident table's hash column holds them. */
class HashColumn implements SlotHashes {
  readonly words: Uint32Array;

  constructor(slotCount: number) {
    this.words = new Uint32Array(randomBytes(slotCount * 16).buffer.slice(0, slotCount * 16));
  }

  firstHashWordOf(slot: number): number {
    return this.words[slot * 4];
  }

  hasHash(slot: number, words: Uint32Array, at: number): boolean {
    for (let word = 0; word < 4; word += 1) {
      if (this.words[slot * 4 + word] !== words[at + word]) return false;
    }
    return true;
  }
}

function expectFindsEvery(index: UrlSlotIndex, column: HashColumn, slotCount: number): void {
  const missing: number[] = [];
  for (let slot = 0; slot < slotCount; slot += 1) {
    if (index.find(column.words, slot * 4) !== slot) missing.push(slot);
  }
  expect(missing).toEqual([]);
  expect(index.find(new Uint32Array([1, 2, 3, 4]), 0)).toBe(-1);
}

describe('UrlSlotIndex', () => {
  it('finds every slot while it grows from its default size, moving entries a few at a time', () => {
    const column = new HashColumn(300_000);
    const index = new UrlSlotIndex(column, 1024);
    for (let slot = 0; slot < 300_000; slot += 1) {
      index.insert(slot);
      // Mid-move, a lookup reads the old table too.
      if (slot === 1_000) expectFindsEvery(index, column, slot + 1);
    }
    expect(index.size).toBe(300_000);
    expectFindsEvery(index, column, 300_000);
  });

  it('sized in advance, takes every entry without growing, and finds each', () => {
    const column = new HashColumn(300_000);
    const index = new UrlSlotIndex(column, 1024);
    index.reserve(300_000);
    const reservedBytes = index.byteCount;
    for (let slot = 0; slot < 300_000; slot += 1) index.insert(slot);
    // Still under the load limit: no larger table, no old one kept while moving.
    expect(index.byteCount).toBe(reservedBytes);
    expectFindsEvery(index, column, 300_000);
  });

  it('is sized in advance only while empty', () => {
    const column = new HashColumn(10);
    const index = new UrlSlotIndex(column);
    index.insert(0);
    expect(() => index.reserve(1_000_000)).toThrow(/only an empty index/);
    expectFindsEvery(index, column, 1);
  });
});
