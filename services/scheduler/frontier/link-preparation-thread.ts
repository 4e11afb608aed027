import { parentPort } from 'node:worker_threads';
import { parseFrontierUrl } from './frontier-url';
import {
  encodeParsedUrls,
  type PreparationAnswer,
  type PreparationRequest,
} from './link-preparation-protocol';

/** A link-preparation thread's whole work: normalize and hash the URLs it is sent. */
parentPort?.on('message', ({ id, urls }: PreparationRequest) => {
  const answer: PreparationAnswer = { id, parsed: encodeParsedUrls(urls.map(parseFrontierUrl)) };
  parentPort?.postMessage(answer);
});
