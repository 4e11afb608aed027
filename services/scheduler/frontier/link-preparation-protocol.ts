import { parseFrontierUrl, type FrontierUrlRejection, type PreparedUrl } from './frontier-url';
import type { KnownUrlReader, KnownUrlTable } from './known-url-set';

/*
 * The messages between the scheduler's main thread and a link-preparation thread, and the form of
 * the answer, which the HTTP thread's preparation of a report's links takes too
 * (thread-link-preparation.ts). The answer is one string — JSON of a flat list, three entries per
 * URL — because the main thread pays for reading it: JSON.parse of a report's 250 parsed links
 * costs ~23 µs there, the structured clone of 250 objects ~120 µs (a scratch loop), which would
 * give back most of what the thread saves.
 */

/**
 * Main thread → thread: the link URLs of one report, as the downloader sent them, and whether a
 * URL the frontier is known to hold is answered as known (see KnownLink) rather than parsed out.
 */
export interface PreparationRequest {
  kind: 'prepare';
  id: number;
  urls: readonly string[];
  isKnownAnswered: boolean;
}

/** Main thread → thread: a table of the frontier's known-URL set (KnownUrlSet.watchTables). */
export interface KnownUrlTableMessage {
  kind: 'known_url_table';
  table: KnownUrlTable;
}

export type PreparationMessage = PreparationRequest | KnownUrlTableMessage;

/** The message that shares one known-URL table with a link-preparation or the HTTP thread. */
export function knownUrlTableMessage(table: KnownUrlTable): KnownUrlTableMessage {
  return { kind: 'known_url_table', table };
}

/**
 * Thread → main thread: `prepareAndEncodeUrls` of those URLs, in the same order — or why they
 * could not be parsed (a fault, not a refused URL: those are answers), which fails that request
 * alone.
 */
export type PreparationAnswer = { id: number; parsed: string } | { id: number; error: string };

/**
 * A normalized URL is never empty and always starts with its scheme, so an empty first entry
 * marks a refused URL, a '=' one a known URL given short (its url_hash next, nothing else), and a
 * '=' before the URL a known URL given in full (its url_hash and domain next).
 */
const REFUSED = '';
const KNOWN = '=';

/**
 * How a URL the frontier is known to hold is answered: not at all (parsed like any other), short
 * (its url_hash: the asker counts it as a duplicate) or in full (marked known, parsed too: the
 * asker decides when it reads the answer whether known links are duplicates).
 */
export type KnownUrlForm = 'unmarked' | 'short' | 'full';

/**
 * Normalizes and hashes `urls` (parseFrontierUrl each) and writes them as the answer the main
 * thread decodes (decodePreparedUrls), looking each up in `knownUrls` as `knownForm` says — on a
 * link-preparation thread or on the HTTP thread (scheduler-http-edge.ts). Nothing else is built
 * per URL: most links of a page are known, and only their url_hash needs to cross.
 */
export function prepareAndEncodeUrls(
  urls: readonly string[],
  knownUrls: KnownUrlReader,
  knownForm: KnownUrlForm,
): string {
  const flat: string[] = new Array(urls.length * 3);
  for (let index = 0; index < urls.length; index += 1) {
    const parsed = parseFrontierUrl(urls[index]);
    const at = index * 3;
    if (typeof parsed === 'string') {
      flat[at] = REFUSED;
      flat[at + 1] = parsed;
      flat[at + 2] = REFUSED;
      continue;
    }
    const isKnown = knownForm !== 'unmarked' && knownUrls.isKnown(parsed.urlHash);
    if (isKnown && knownForm === 'short') {
      flat[at] = KNOWN;
      flat[at + 1] = parsed.urlHash;
      flat[at + 2] = REFUSED;
    } else {
      flat[at] = isKnown ? KNOWN + parsed.url : parsed.url;
      flat[at + 1] = parsed.urlHash;
      flat[at + 2] = parsed.domain;
    }
  }
  return JSON.stringify(flat);
}

/**
 * Reads prepareAndEncodeUrls' answer. A URL marked known in full comes back as a KnownLink when
 * `isKnownAnswered`, else parsed; one marked short is a KnownLink either way (only sent to an
 * asker that answered known links).
 */
export function decodePreparedUrls(text: string, isKnownAnswered: boolean): PreparedUrl[] {
  const flat = JSON.parse(text) as string[];
  const parsed = new Array<PreparedUrl>(flat.length / 3);
  for (let index = 0; index < parsed.length; index += 1) {
    const at = index * 3;
    const first = flat[at];
    if (first === REFUSED) {
      parsed[index] = flat[at + 1] as FrontierUrlRejection;
    } else if (first.startsWith(KNOWN) && (first === KNOWN || isKnownAnswered)) {
      parsed[index] = { isKnown: true, urlHash: flat[at + 1] };
    } else {
      const url = first.startsWith(KNOWN) ? first.slice(KNOWN.length) : first;
      parsed[index] = { url, urlHash: flat[at + 1], domain: flat[at + 2] };
    }
  }
  return parsed;
}
