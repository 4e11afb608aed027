import { randomBytes } from 'node:crypto';
import { KnownUrlReader, KnownUrlSet } from './known-url-set';

const randomUrlHash = () => randomBytes(16).toString('hex');

describe('KnownUrlSet', () => {
  it('answers exactly like a Set of the same hashes while it grows many times over', () => {
    const known = new KnownUrlSet(16);
    const reference = new Set<string>();
    // Counted, not asserted one by one: 180,000 expect() calls would take seconds.
    let refusedCount = 0;
    for (let index = 0; index < 60_000; index += 1) {
      const urlHash = randomUrlHash();
      if (!known.add(urlHash)) refusedCount += 1;
      reference.add(urlHash);
    }
    expect(refusedCount).toBe(0);
    expect(known.size).toBe(60_000);
    expect([...reference].filter((urlHash) => !known.has(urlHash))).toEqual([]);
    const strangers = Array.from({ length: 60_000 }, randomUrlHash);
    expect(strangers.filter((stranger) => known.has(stranger) !== reference.has(stranger))).toEqual(
      [],
    );
    // 16 bytes a slot, at most 60 % full: the memory per URL the README states.
    expect(known.byteCount / known.size).toBeLessThanOrEqual(16 / 0.3);
  });

  it('finds every hash and refuses every duplicate while entries move to a larger table', () => {
    const known = new KnownUrlSet(16);
    const added: string[] = [];
    // Counted, not asserted one by one (see above).
    let wrongAnswerCount = 0;
    for (let index = 0; index < 40_000; index += 1) {
      const urlHash = randomUrlHash();
      if (!known.add(urlHash)) wrongAnswerCount += 1;
      added.push(urlHash);
      // An earlier hash: most of them sit in the old table or have just moved out of it.
      const earlier = added[(index * 7919) % added.length];
      if (!known.has(earlier) || known.add(earlier)) wrongAnswerCount += 1;
      if (known.has(randomUrlHash())) wrongAnswerCount += 1;
    }
    expect(wrongAnswerCount).toBe(0);
    expect(known.size).toBe(40_000);
  });

  it('tells hashes apart that share their slot word and differ only in the last word', () => {
    const known = new KnownUrlSet(16);
    const first = 'aaaaaaaabbbbbbbbcccccccc00000001';
    const second = 'aaaaaaaabbbbbbbbcccccccc00000002';
    known.add(first);
    expect(known.has(first)).toBe(true);
    expect(known.has(second)).toBe(false);
    expect(known.add(second)).toBe(true);
    expect(known.add(first)).toBe(false);
    expect(known.size).toBe(2);
  });

  it('keeps the all-zero hash, which marks empty slots in the table', () => {
    const known = new KnownUrlSet();
    const zero = '0'.repeat(32);
    expect(known.has(zero)).toBe(false);
    expect(known.add(zero)).toBe(true);
    expect(known.add(zero)).toBe(false);
    expect(known.has(zero)).toBe(true);
    expect(known.size).toBe(1);
  });

  it('refuses anything that is not a url_hash instead of answering for it', () => {
    const known = new KnownUrlSet();
    expect(() => known.has('ABCDEF0123456789abcdef0123456789')).toThrow(RangeError);
    expect(() => known.add('0123')).toThrow(RangeError);
    const valid = '0123456789abcdef0123456789abcdef';
    // Every position, with characters next to the digit ranges and one whose low byte is '0'.
    for (const character of ['/', ':', '`', 'g', 'F', ' ', '\u0130', '\u0161']) {
      for (let index = 0; index < 32; index += 1) {
        const text = valid.slice(0, index) + character + valid.slice(index + 1);
        expect(() => known.add(text)).toThrow(RangeError);
      }
    }
    expect(known.size).toBe(0);
    expect(known.add(valid)).toBe(true);
  });
});

describe('KnownUrlReader', () => {
  it('answers from the tables it is handed what the set answers, while the set grows', () => {
    const known = new KnownUrlSet(16);
    // 160 entries: the table of 256 slots is being moved into one of 512 (since the 154th).
    const early = Array.from({ length: 160 }, randomUrlHash);
    for (const urlHash of early) known.add(urlHash);
    const reader = new KnownUrlReader();
    let tableCount = 0;
    known.watchTables((table) => {
      reader.addTable(table);
      tableCount += 1;
    });
    // Handed in the middle of that move: the table being emptied and the current one.
    expect(tableCount).toBe(2);
    const later = Array.from({ length: 20_000 }, randomUrlHash);
    // Counted, not asserted one by one (see above).
    let wrongAnswerCount = 0;
    for (const [index, urlHash] of later.entries()) {
      if (reader.isKnown(urlHash)) wrongAnswerCount += 1;
      known.add(urlHash);
      if (!reader.isKnown(urlHash)) wrongAnswerCount += 1;
      const earlier =
        index % 2 === 0 ? early[index % early.length] : later[(index * 7919) % (index + 1)];
      if (!reader.isKnown(earlier)) wrongAnswerCount += 1;
    }
    expect(wrongAnswerCount).toBe(0);
    // It grew from 512 slots to 64k while watched (seven times): every new table was handed over.
    expect(tableCount).toBe(9);
    const strangers = Array.from({ length: 20_000 }, randomUrlHash);
    expect(strangers.filter((stranger) => reader.isKnown(stranger))).toEqual([]);
  });

  it('says "not known" for what it was not shown: a table it missed, the all-zero hash', () => {
    const known = new KnownUrlSet(16);
    const reader = new KnownUrlReader();
    let tableCount = 0;
    // Only the first table: the set grows past it without telling this reader.
    known.watchTables((table) => {
      if (tableCount === 0) reader.addTable(table);
      tableCount += 1;
    });
    const added = Array.from({ length: 1000 }, randomUrlHash);
    for (const urlHash of added) known.add(urlHash);
    expect(tableCount).toBeGreaterThan(1);
    const answered = added.filter((urlHash) => reader.isKnown(urlHash));
    // Those added before the first growth are in the first table (it is never cleared); no later.
    expect(answered).toEqual(added.slice(0, answered.length));
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(added.length);
    const zero = '0'.repeat(32);
    known.add(zero);
    expect(known.has(zero)).toBe(true);
    expect(reader.isKnown(zero)).toBe(false);
  });
});
