import type { FrontierUrlRejection, PreparedUrl } from './frontier-url';
import type { KnownUrlTable } from './known-url-set';

/*
 * The messages between the scheduler's main thread and a link-preparation thread. The answer is
 * one string — JSON of a flat list, three entries per URL — because the main thread pays for
 * reading it: JSON.parse of a report's 250 parsed links costs ~23 µs there, the structured clone of
 * 250 objects ~120 µs (a scratch loop), which would give back most of what the thread saves.
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

/**
 * Thread → main thread: `encodeParsedUrls` of those URLs, in the same order — or why they could
 * not be parsed (a fault, not a refused URL: those are answers), which fails that request alone.
 */
export type PreparationAnswer = { id: number; parsed: string } | { id: number; error: string };

/**
 * A normalized URL is never empty and always starts with its scheme, so an empty first entry
 * marks a refused URL and a '=' one a known URL (its url_hash next; nothing else is sent for it).
 */
const REFUSED = '';
const KNOWN = '=';

export function encodeParsedUrls(parsed: readonly PreparedUrl[]): string {
  const flat: string[] = new Array(parsed.length * 3);
  for (let index = 0; index < parsed.length; index += 1) {
    const entry = parsed[index];
    const at = index * 3;
    if (typeof entry === 'string') {
      flat[at] = REFUSED;
      flat[at + 1] = entry;
      flat[at + 2] = REFUSED;
    } else if ('isKnown' in entry) {
      flat[at] = KNOWN;
      flat[at + 1] = entry.urlHash;
      flat[at + 2] = REFUSED;
    } else {
      flat[at] = entry.url;
      flat[at + 1] = entry.urlHash;
      flat[at + 2] = entry.domain;
    }
  }
  return JSON.stringify(flat);
}

export function decodeParsedUrls(text: string): PreparedUrl[] {
  const flat = JSON.parse(text) as string[];
  const parsed = new Array<PreparedUrl>(flat.length / 3);
  for (let index = 0; index < parsed.length; index += 1) {
    const at = index * 3;
    const first = flat[at];
    parsed[index] =
      first === REFUSED
        ? (flat[at + 1] as FrontierUrlRejection)
        : first === KNOWN
          ? { isKnown: true, urlHash: flat[at + 1] }
          : { url: first, urlHash: flat[at + 1], domain: flat[at + 2] };
  }
  return parsed;
}
