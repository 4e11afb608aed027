import { parentPort } from 'node:worker_threads';
import { parseFrontierUrl } from './frontier-url';
import {
  encodeParsedUrls,
  type PreparationAnswer,
  type PreparationRequest,
} from './link-preparation-protocol';

/**
 * A link-preparation thread's whole work: normalize and hash the URLs it is sent. A request that
 * throws is answered with its error — one bad request must not take the thread down with the
 * others it is about to serve.
 */
parentPort?.on('message', ({ id, urls }: PreparationRequest) => {
  let answer: PreparationAnswer;
  try {
    answer = { id, parsed: encodeParsedUrls(urls.map(parseFrontierUrl)) };
  } catch (error) {
    answer = { id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
