import { parentPort } from 'node:worker_threads';
import { KnownUrlReader } from './known-url-set';
import {
  prepareAndEncodeUrls,
  type PreparationAnswer,
  type PreparationMessage,
} from './link-preparation-protocol';

/** The frontier's known-URL set as far as it was shared with this thread (none: nothing known). */
const knownUrls = new KnownUrlReader();

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
    // A URL the frontier holds comes back as its url_hash alone when asked: most links of a page
    // are pages the frontier has, and the main thread then neither reads them back nor looks
    // them up.
    answer = {
      id,
      parsed: prepareAndEncodeUrls(urls, knownUrls, isKnownAnswered ? 'short' : 'unmarked'),
    };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
