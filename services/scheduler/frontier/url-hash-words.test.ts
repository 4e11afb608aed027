import { randomBytes } from 'node:crypto';
import { hexOfWords, readHexWords, readUrlHashWords } from './url-hash-words';

describe('url hash words', () => {
  it('reads any url_hash into four words and spells it back', () => {
    const words = new Uint32Array(8);
    const hashes = Array.from({ length: 5000 }, () => randomBytes(16).toString('hex'));
    hashes.push('0'.repeat(32), 'f'.repeat(32));
    expect(
      hashes.filter((hash) => {
        readUrlHashWords(hash, words, 3);
        return hexOfWords(words, 3, 4) !== hash;
      }),
    ).toEqual([]);
  });

  it.each([
    ['uppercase hex', 'A'.repeat(32)],
    ['31 characters', 'a'.repeat(31)],
    ['33 characters', 'a'.repeat(33)],
    ['a letter past f', `${'a'.repeat(31)}g`],
    ['a character whose low byte is a hex digit', `${'a'.repeat(31)}\u0130`],
  ])('refuses %s as a url_hash', (_, text) => {
    expect(() => readUrlHashWords(text, new Uint32Array(4))).toThrow(RangeError);
  });

  it('reads ids with a prefix and spells them back with it', () => {
    const words = new Uint32Array(2);
    expect(readHexWords('l-0123456789abcdef', 2, 2, words, 0)).toBe(true);
    expect(hexOfWords(words, 0, 2, 'l-')).toBe('l-0123456789abcdef');
    expect(readHexWords('l-0123456789abcdeF', 2, 2, words, 0)).toBe(false);
    expect(readHexWords('l-0123', 2, 2, words, 0)).toBe(false);
  });
});
