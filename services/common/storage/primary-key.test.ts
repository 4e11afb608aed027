import {
  PrimaryKey,
  SINGLETON_PRIMARY_KEY,
  encodePrimaryKey,
  encodePrimaryKeyPrefix,
  primaryKey,
  primaryKeyPrefix,
} from './primary-key';
import { StorageConventionError } from './storage-errors';
import { seededRandom } from '../testing/seeded-random';

/** Characters around the escapes and the separator, plus multi-byte UTF-8. */
const EVERY_KIND = [
  '\u0000',
  ' ',
  '!',
  '%',
  '-',
  '.',
  '/',
  '0',
  '9',
  ':',
  ';',
  'A',
  'a',
  '~',
  'é',
  '中',
  '😀',
];
/** Characters that are stored as is (the ordering guarantee is about these). */
const UNESCAPED = ['\u0000', ' ', '!', '-', '.', '0', '9', ';', 'A', 'Z', 'a', 'z', '~', 'é', '中'];

function randomText(random: () => number, alphabet: string[], length: number): string {
  return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
}

function compareTuples(left: readonly string[], right: readonly string[]): number {
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const order = Buffer.compare(Buffer.from(left[index]), Buffer.from(right[index]));
    if (order !== 0) {
      return order;
    }
  }
  return Math.sign(left.length - right.length);
}

function encodedBytes(parts: string[]): Buffer {
  return Buffer.from(primaryKey(...parts).encoded, 'utf8');
}

function expectSameOrder(tuples: Array<[string[], string[]]>): void {
  const misordered = tuples.filter(
    ([left, right]) =>
      Buffer.compare(encodedBytes(left), encodedBytes(right)) !== compareTuples(left, right),
  );
  expect(misordered.slice(0, 5)).toEqual([]);
}

describe('primaryKey', () => {
  test('byte order equals tuple order for fixed-width parts', () => {
    const random = seededRandom(20260815);
    const widths = [4, 3, 2];
    const randomTuple = () => {
      const partCount = 1 + Math.floor(random() * widths.length);
      return widths.slice(0, partCount).map((width) => randomText(random, UNESCAPED, width));
    };
    expectSameOrder(Array.from({ length: 20_000 }, () => [randomTuple(), randomTuple()]));
  });

  test('byte order equals time order for `…_at` times, as in the contract’s index keys', () => {
    const random = seededRandom(42);
    const randomTime = () =>
      new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 86_400_000 * 400))
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z');
    const randomRank = () => String(Math.floor(random() * 20)).padStart(4, '0');
    const randomTuple = () => [randomRank(), randomTime(), randomText(random, ['a', 'f', '0'], 4)];
    expectSameOrder(Array.from({ length: 10_000 }, () => [randomTuple(), randomTuple()]));
  });

  test('a prefix of leading parts matches exactly the keys with those leading parts', () => {
    const random = seededRandom(3);
    const alphabet = ['a', '-', '/', ':', '%'];
    const randomParts = (count: number) =>
      Array.from({ length: count }, () =>
        randomText(random, alphabet, 1 + Math.floor(random() * 2)),
      );
    const wrong: string[][][] = [];
    for (let trial = 0; trial < 10_000; trial += 1) {
      const key = randomParts(3);
      const leading = randomParts(1 + Math.floor(random() * 2));
      const isMatch = primaryKey(...key).encoded.startsWith(primaryKeyPrefix(...leading).encoded);
      const hasLeadingParts = leading.every((part, index) => key[index] === part);
      if (isMatch !== hasLeadingParts) {
        wrong.push([key, leading]);
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  test('encoded keys never contain ":" and decode back to their parts', () => {
    const random = seededRandom(7);
    const broken: string[][] = [];
    for (let trial = 0; trial < 5_000; trial += 1) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
        randomText(random, EVERY_KIND, 1 + Math.floor(random() * 4)),
      );
      const encoded = primaryKey(...parts).encoded;
      const decoded = PrimaryKey.fromEncoded(encoded).parts;
      if (
        encoded.includes(':') ||
        encoded.split('/').length !== parts.length ||
        decoded.join('\u0000') !== parts.join('\u0000')
      ) {
        broken.push(parts);
      }
    }
    expect(broken.slice(0, 5)).toEqual([]);
  });

  test('a raw string prefix encodes to a byte prefix of every key starting with it', () => {
    const random = seededRandom(99);
    const unmatched: string[] = [];
    for (let trial = 0; trial < 5_000; trial += 1) {
      const part = randomText(random, EVERY_KIND, 2 + Math.floor(random() * 6));
      const prefix = part.slice(0, 1 + Math.floor(random() * (part.length - 1)));
      if (/[\uD800-\uDBFF]$/.test(prefix)) {
        continue; // a prefix ending inside a surrogate pair is not a string anyone scans for
      }
      if (!primaryKey(part, 'tail').encoded.startsWith(encodePrimaryKeyPrefix(prefix))) {
        unmatched.push(part);
      }
    }
    expect(unmatched.slice(0, 5)).toEqual([]);
  });

  test('readable examples', () => {
    expect(primaryKey('0003', '2026-08-15T07:47:52Z', 'ab12').encoded).toBe(
      '0003/2026-08-15T07%3A47%3A52Z/ab12',
    );
    expect(primaryKey('[2001:db8::1]').encoded).toBe('[2001%3Adb8%3A%3A1]');
    expect(primaryKey('100%', 'a/b').encoded).toBe('100%25/a%2Fb');
    expect(primaryKeyPrefix('0003').encoded).toBe('0003/');
    expect(SINGLETON_PRIMARY_KEY.encoded).toBe('current');
    expect(encodePrimaryKey('a:b')).toBe('a%3Ab');
    expect(encodePrimaryKey(primaryKey('a:b', 'c'))).toBe('a%3Ab/c');
    expect(primaryKey('a%3Ab').parts).toEqual(['a%3Ab']);
    expect(PrimaryKey.fromEncoded('a%3Ab/c%2Fd').parts).toEqual(['a:b', 'c/d']);
    expect(JSON.stringify({ key: primaryKey('a', 'b') })).toBe('{"key":"a/b"}');
  });

  test('rejects empty parts, unpaired surrogates and non-canonical encodings', () => {
    const invalidParts: string[][] = [[], [''], ['a', ''], ['\uD800'], ['a\uDC00b']];
    for (const parts of invalidParts) {
      expect(() => primaryKey(...parts)).toThrow(StorageConventionError);
    }
    for (const encoded of ['', 'a:b', 'a//b', '/a', 'a/', '%3a', '%41', 'a%', 'a%2', '%2f']) {
      expect(() => PrimaryKey.fromEncoded(encoded)).toThrow(StorageConventionError);
    }
  });
});
