/**
 * Comparing a page's rendered main text with a JSON answer — the evidence both the downloader's
 * hint (matched_character_count) and the sampler's verification rest on, so both measure it the
 * same way.
 */

/** Every string value of a JSON value, depth first, joined by spaces (keys are not content). */
export function textOfJsonValue(value: unknown): string {
  const parts: string[] = [];
  const visit = (node: unknown, depth: number) => {
    if (depth > 64) return;
    if (typeof node === 'string') parts.push(node);
    else if (Array.isArray(node)) node.forEach((item) => visit(item, depth + 1));
    else if (node !== null && typeof node === 'object') {
      Object.values(node).forEach((item) => visit(item, depth + 1));
    }
  };
  visit(value, 0);
  return parts.join(' ');
}

/** Lowercase words of a text (letters and digits of any script), in order. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Characters of a text's words (what `text_character_count` counts). */
export function wordCharacterCount(text: string): number {
  return wordsOf(text).reduce((sum, word) => sum + word.length, 0);
}

/**
 * Characters of `mainText`'s words that `candidateText` also carries (each candidate word used
 * once): how much of the page's text the candidate accounts for.
 */
export function matchedCharacterCount(mainText: string, candidateText: string): number {
  const available = new Map<string, number>();
  for (const word of wordsOf(candidateText)) available.set(word, (available.get(word) ?? 0) + 1);
  let matched = 0;
  for (const word of wordsOf(mainText)) {
    const left = available.get(word) ?? 0;
    if (left === 0) continue;
    available.set(word, left - 1);
    matched += word.length;
  }
  return matched;
}
