import { TextArena } from './text-arena';

describe('TextArena', () => {
  it('gives back every string as appended, across chunks and in any script', () => {
    const arena = new TextArena();
    const texts = Array.from({ length: 30_000 }, (_, index) =>
      index % 3 === 0
        ? `https://例え.jp/ページ/${index}`
        : `https://d${index}.example/${'x'.repeat(index % 400)}`,
    );
    const references = texts.map((text) => arena.append(text));
    // More bytes than one chunk holds: the arena grew by chunks.
    expect(arena.liveByteCount).toBeGreaterThan(TextArena.CHUNK_BYTE_COUNT);
    expect(
      texts.filter(
        (text, index) => arena.read(references[index].at, references[index].byteLength) !== text,
      ),
    ).toEqual([]);
  });

  it('keeps a string longer than a chunk in a chunk of its own, and the next one after it', () => {
    const arena = new TextArena();
    const before = arena.append('before');
    const long = 'é'.repeat(TextArena.CHUNK_BYTE_COUNT); // two bytes each in UTF-8
    const longReference = arena.append(long);
    const after = arena.append('after');
    expect(arena.read(longReference.at, longReference.byteLength)).toBe(long);
    expect(arena.read(before.at, before.byteLength)).toBe('before');
    expect(arena.read(after.at, after.byteLength)).toBe('after');
  });

  it('counts released bytes as garbage and copies a string into another arena unchanged', () => {
    const arena = new TextArena();
    const kept = arena.append('kept ✓');
    const dropped = arena.append('dropped');
    arena.release(dropped.byteLength);
    expect(arena.garbageByteCount).toBe(7);
    expect(arena.liveByteCount).toBe(kept.byteLength);
    const fresh = new TextArena();
    fresh.append('something first');
    const copied = fresh.copyFrom(arena, kept.at, kept.byteLength);
    expect(fresh.read(copied, kept.byteLength)).toBe('kept ✓');
  });
});
