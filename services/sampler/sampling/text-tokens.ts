/**
 * Text → comparable tokens, independent of language: runs of letters and digits, lowercased and
 * NFKC-normalized; runs in scripts written without spaces (Han, Hiragana, Katakana, Hangul) become
 * overlapping character bigrams, the usual language-independent stand-in for words there. Latin,
 * Cyrillic, Greek, … runs are words; one-letter words carry no signal and are dropped.
 */

const WORD_RUN = /[\p{L}\p{N}]+/gu;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const UNSPACED_SPLIT =
  /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u;

export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const run of text.normalize('NFKC').toLowerCase().match(WORD_RUN) ?? []) {
    if (!UNSPACED_SCRIPT.test(run)) {
      if (run.length > 1) tokens.push(run);
      continue;
    }
    // "React框架入门" → "react", "框架", "架入", "入门".
    for (const part of run.split(UNSPACED_SPLIT)) {
      if (part === '') continue;
      if (!UNSPACED_SCRIPT.test(part)) {
        if (part.length > 1) tokens.push(part);
        continue;
      }
      const characters = [...part];
      if (characters.length === 1) tokens.push(part);
      for (let index = 0; index + 1 < characters.length; index += 1) {
        tokens.push(characters[index] + characters[index + 1]);
      }
    }
  }
  return tokens;
}

/** A multiset of tokens: how often each occurs. */
export class TokenCounts {
  private readonly counts = new Map<string, number>();
  private total = 0;

  constructor(tokens: Iterable<string> = []) {
    for (const token of tokens) this.add(token);
  }

  add(token: string, count = 1): void {
    this.counts.set(token, (this.counts.get(token) ?? 0) + count);
    this.total += count;
  }

  addAll(other: TokenCounts): void {
    for (const [token, count] of other.counts) this.add(token, count);
  }

  get size(): number {
    return this.total;
  }

  countOf(token: string): number {
    return this.counts.get(token) ?? 0;
  }

  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }

  /**
   * How many of this multiset's tokens `other` also has (min of the counts, summed): repeated
   * words count as often as both sides have them.
   */
  overlapWith(other: TokenCounts): number {
    let shared = 0;
    for (const [token, count] of this.counts) shared += Math.min(count, other.countOf(token));
    return shared;
  }

  /** Share of this multiset's tokens that `other` has too; 1 for an empty multiset. */
  coveredShareBy(other: TokenCounts): number {
    return this.total === 0 ? 1 : this.overlapWith(other) / this.total;
  }
}
