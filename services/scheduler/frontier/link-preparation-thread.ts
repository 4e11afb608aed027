import { parentPort } from 'node:worker_threads';
import { parseFrontierUrl, type PreparedUrl } from './frontier-url';
import { KnownUrlReader } from './known-url-set';
import {
  encodeParsedUrls,
  type PreparationAnswer,
  type PreparationMessage,
} from './link-preparation-protocol';

/** The frontier's known-URL set as far as it was shared with this thread (none: nothing known). */
const knownUrls = new KnownUrlReader();

/**
 * Normalizes and hashes one URL, and — when asked — answers a URL the frontier holds as known:
 * most links of a page are pages the frontier has, and the main thread then neither reads them
 * back nor looks them up.
 */
function prepare(url: string, isKnownAnswered: boolean): PreparedUrl {
  const parsed = parseFrontierUrl(url);
  if (!isKnownAnswered || typeof parsed === 'string' || !knownUrls.isKnown(parsed.urlHash)) {
    return parsed;
  }
  return { isKnown: true, urlHash: parsed.urlHash };
}

/**
 * A link-preparation thread's whole work: normalize and hash the URLs it is sent. A request that
 * throws is answered with its error — one bad request must not take the thread down with the
 * others it is about to serve.
 */
parentPort?.on('message', (message: PreparationMessage) => {
  if (message.kind === 'known_url_table') {
    knownUrls.addTable(message.table);
    return;
  }
  const { id, urls, isKnownAnswered } = message;
  let answer: PreparationAnswer;
  try {
    answer = { id, parsed: encodeParsedUrls(urls.map((url) => prepare(url, isKnownAnswered))) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
