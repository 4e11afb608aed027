import { randomBytes } from 'node:crypto';
import { urlSlotEntriesOnThread } from './url-slot-entries';
import { UrlSlotIndex, urlSlotEntriesOf, type SlotHashes } from './url-slot-index';

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

  it('adopts entries built from the first hash words alone, here or on a thread, and finds each', async () => {
    const column = new HashColumn(300_000);
    const firstWords = column.words.filter((_, word) => word % 4 === 0);
    const built = urlSlotEntriesOf(firstWords);
    const fromThread = await urlSlotEntriesOnThread(firstWords);
    expect(fromThread).toEqual(built);
    const index = new UrlSlotIndex(column);
    index.adopt(fromThread, 300_000);
    expect(index.size).toBe(300_000);
    expectFindsEvery(index, column, 300_000);
    // It takes puts after, growing from there.
    const more = new HashColumn(400_000);
    more.words.set(column.words);
    const grown = new UrlSlotIndex(more);
    grown.adopt(urlSlotEntriesOf(firstWords), 300_000);
    for (let slot = 300_000; slot < 400_000; slot += 1) grown.insert(slot);
    expectFindsEvery(grown, more, 400_000);
  });

  it('adopts only into an empty index, and only entries that can hold the slots', async () => {
    const column = new HashColumn(100);
    const entries = urlSlotEntriesOf(column.words.filter((_, word) => word % 4 === 0));
    expect(() => new UrlSlotIndex(column).adopt(entries, entries.length)).toThrow(/cannot index/);
    expect(() => new UrlSlotIndex(column).adopt(new Int32Array(100), 10)).toThrow(/cannot index/);
    const used = new UrlSlotIndex(column);
    used.insert(0);
    expect(() => used.adopt(entries, 100)).toThrow(/only an empty index/);
    await expect(urlSlotEntriesOnThread(null as unknown as Uint32Array)).rejects.toThrow(
      /url_hash index thread: /,
    );
  });
});
