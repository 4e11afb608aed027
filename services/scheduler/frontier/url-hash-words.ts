/*
 * Lowercase hex as unsigned 32-bit words, and back. A url_hash (CONVENTION.md: 16 bytes of SHA-256
 * as 32 lowercase hex characters) is four words: the in-memory tables keep hashes whole as words,
 * never as strings; ids of the same form (object_id) are kept the same way.
 */

/** The value of each lowercase hex digit by character code; -1 for every other character. */
const HEX_DIGIT_VALUES = new Int32Array(256).fill(-1);
for (let digit = 0; digit < 16; digit += 1) {
  HEX_DIGIT_VALUES['0123456789abcdef'.charCodeAt(digit)] = digit;
}

/**
 * Writes `wordCount` words read from `text` at `start` (8 characters each) into `into` from `at`;
 * false, with `into` partly written, when a character there is not a lowercase hex digit. Parsed by
 * hand in one pass, each digit looked up in a table: a regular expression and parseInt calls cost
 * several times more, on every link, and branching on the character's range (a digit or a letter,
 * at random in a hash) twice as much as the table (~250 vs ~70–130 ns a hash).
 */
export function readHexWords(
  text: string,
  start: number,
  wordCount: number,
  into: Uint32Array,
  at: number,
): boolean {
  if (text.length < start + wordCount * 8) return false;
  // OR of every digit's value: negative once any character is not a lowercase hex digit.
  let invalid = 0;
  for (let word = 0; word < wordCount; word += 1) {
    let value = 0;
    const first = start + word * 8;
    for (let index = first; index < first + 8; index += 1) {
      // A character above 255 is masked into the table's range: still not a hex digit there
      // unless its low byte is one, so it is checked apart.
      const code = text.charCodeAt(index);
      const digit = HEX_DIGIT_VALUES[code & 0xff] | (code > 0xff ? -1 : 0);
      invalid |= digit;
      value = (value << 4) | (digit & 0xf);
    }
    into[at + word] = value;
  }
  return invalid >= 0;
}

/** Writes `urlHash`'s four words into `into` from `at`; a RangeError for anything else. */
export function readUrlHashWords(urlHash: string, into: Uint32Array, at = 0): void {
  if (urlHash.length !== 32 || !readHexWords(urlHash, 0, 4, into, at)) {
    throw new RangeError(`not a url_hash (32 lowercase hex characters): ${urlHash.slice(0, 40)}`);
  }
}

const HEX_CHARACTER_CODES = Buffer.from('0123456789abcdef', 'latin1');
/** Where hexOfWords spells its text before it becomes a string (one native decode, no parts). */
let spelled = Buffer.alloc(64);

/** `prefix` and the `wordCount` words at `at` in `words` as lowercase hex (readHexWords's inverse). */
export function hexOfWords(words: Uint32Array, at: number, wordCount: number, prefix = ''): string {
  const length = prefix.length + wordCount * 8;
  if (spelled.length < length) spelled = Buffer.alloc(length * 2);
  spelled.write(prefix, 0, 'latin1');
  for (let word = 0; word < wordCount; word += 1) {
    const value = words[at + word];
    const first = prefix.length + word * 8;
    for (let nibble = 0; nibble < 8; nibble += 1) {
      spelled[first + nibble] = HEX_CHARACTER_CODES[(value >>> (28 - nibble * 4)) & 0xf];
    }
  }
  return spelled.toString('latin1', 0, length);
}
