import {
  ABBREVIATION_WHITELIST,
  FORBIDDEN_TRUNCATIONS,
  SHORT_WORDS,
  STANDARD_NAMES,
} from './convention-lists';

/**
 * The word rules of CONVENTION.md that apply to every name on disk (table names and document field
 * names), with the same meaning as the gate's `checkNameWords` (scripts/gate/convention-model.ts):
 * lowercase snake_case, no forbidden truncation (single words or word sequences), and every word of
 * three letters or fewer listed as an abbreviation, a standard name or a short word.
 */

export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

const SHORT_WORD_LENGTH = 3;
const ALLOWED_SHORT_WORDS: ReadonlySet<string> = new Set<string>([
  ...ABBREVIATION_WHITELIST,
  ...STANDARD_NAMES,
  ...SHORT_WORDS,
]);
const TRUNCATION_SEQUENCES = FORBIDDEN_TRUNCATIONS.map((truncation) => truncation.split('_'));

function containsSequence(words: string[], sequence: string[]): boolean {
  for (let start = 0; start + sequence.length <= words.length; start += 1) {
    if (sequence.every((word, offset) => words[start + offset] === word)) {
      return true;
    }
  }
  return false;
}

/** Returns why `name` breaks the word rules, or undefined when it conforms. */
export function findNamingViolation(name: string): string | undefined {
  if (!SNAKE_CASE.test(name)) {
    return `"${name}" is not lowercase snake_case`;
  }
  const words = name.split('_');
  const truncation = TRUNCATION_SEQUENCES.find((sequence) => containsSequence(words, sequence));
  if (truncation !== undefined) {
    return `"${name}" uses the forbidden truncation "${truncation.join('_')}"`;
  }
  const shortWord = words.find(
    (word) => word.length <= SHORT_WORD_LENGTH && !ALLOWED_SHORT_WORDS.has(word),
  );
  if (shortWord !== undefined) {
    return (
      `"${name}" has the short word "${shortWord}", which CONVENTION.md lists neither as an ` +
      'abbreviation, a standard name nor a short word'
    );
  }
  return undefined;
}
