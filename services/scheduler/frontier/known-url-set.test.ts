import { randomBytes } from 'node:crypto';
import { KnownUrlSet } from './known-url-set';

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
