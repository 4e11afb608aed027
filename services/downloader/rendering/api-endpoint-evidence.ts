import {
  childPointer,
  matchedCharacterCount,
  textOfJsonValue,
  wordCharacterCount,
} from '../../common/api-endpoint';
import { tryNormalizeUrl } from '../../common/url/normalize-url';
import type { JsonResponse } from './json-response-collector';

/** A JSON answer that carried most of a rendered page's main text (an API endpoint hint's body). */
export interface ApiEndpointCandidate {
  /** Normalized. */
  readonly endpointUrl: string;
  /** RFC 6901; "" = the whole answer. */
  readonly contentPointer: string;
  readonly matchedCharacterCount: number;
  readonly textCharacterCount: number;
}

/** The brief's bar for a hint: most of the main text, and enough text to say so. */
const MIN_MATCHED_RATIO = 0.6;
const MIN_TEXT_CHARACTER_COUNT = 20;
/** JSON nesting followed at most (the shared text helper stops at 64 as well). */
const MAX_DEPTH = 64;

interface Located {
  readonly pointer: string;
  readonly value: unknown;
  readonly matched: number;
}

function childrenOf(node: Located): Array<{ pointer: string; value: unknown }> {
  const { value, pointer } = node;
  if (Array.isArray(value)) {
    return value.map((item, index) => ({ pointer: childPointer(pointer, index), value: item }));
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).map(([key, item]) => ({
      pointer: childPointer(pointer, key),
      value: item,
    }));
  }
  return [];
}

/**
 * The most specific value of `document` that covers as much of the main text as the whole does:
 * from the root, step into the child that keeps the full match, as long as one does. A wrapper
 * (`{"data": {...}}`) is skipped; a value that holds only part of the text (the body without
 * the heading) is not taken in place of the whole.
 */
function bestValueOf(document: unknown, mainText: string): Located {
  let best: Located = {
    pointer: '',
    value: document,
    matched: matchedCharacterCount(mainText, textOfJsonValue(document)),
  };
  for (let depth = 0; depth < MAX_DEPTH && best.matched > 0; depth += 1) {
    let next: Located | undefined;
    for (const child of childrenOf(best)) {
      const matched = matchedCharacterCount(mainText, textOfJsonValue(child.value));
      if (matched === best.matched) {
        next = { ...child, matched };
        break;
      }
    }
    if (next === undefined) break;
    best = next;
  }
  return best;
}

/**
 * Of the page's JSON answers, the one whose best value covers most of the main text (main text:
 * the wait_selector container, else <main>, else the body) — when it covers at least 60 % of a
 * text of at least 20 word characters. Measured with the shared helpers the sampler verifies
 * with, so both agree on the counts.
 */
export function apiEndpointCandidateOf(
  mainText: string,
  responses: readonly JsonResponse[],
): ApiEndpointCandidate | undefined {
  const textCharacterCount = wordCharacterCount(mainText);
  if (textCharacterCount < MIN_TEXT_CHARACTER_COUNT) return undefined;
  let best: (Located & { url: string }) | undefined;
  for (const response of responses) {
    let document: unknown;
    try {
      document = JSON.parse(response.body);
    } catch {
      continue;
    }
    const located = bestValueOf(document, mainText);
    if (best === undefined || located.matched > best.matched)
      best = { ...located, url: response.url };
  }
  if (best === undefined || best.matched < MIN_MATCHED_RATIO * textCharacterCount) return undefined;
  const endpointUrl = tryNormalizeUrl(best.url);
  if (endpointUrl === undefined) return undefined;
  return {
    endpointUrl,
    contentPointer: best.pointer,
    matchedCharacterCount: best.matched,
    textCharacterCount,
  };
}
