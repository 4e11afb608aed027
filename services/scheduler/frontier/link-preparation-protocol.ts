import type { FrontierUrl, FrontierUrlRejection } from './frontier-url';

/*
 * The messages between the scheduler's main thread and a link-preparation thread. The answer is
 * one string — JSON of a flat list, three entries per URL — because the main thread pays for
 * reading it: JSON.parse of a report's 250 parsed links costs ~23 µs there, the structured clone of
 * 250 objects ~120 µs (a scratch loop), which would give back most of what the thread saves.
 */

/** Main thread → thread: the link URLs of one report, as the downloader sent them. */
export interface PreparationRequest {
  id: number;
  urls: readonly string[];
}

/**
 * Thread → main thread: `encodeParsedUrls` of those URLs, in the same order — or why they could
 * not be parsed (a fault, not a refused URL: those are answers), which fails that request alone.
 */
export type PreparationAnswer = { id: number; parsed: string } | { id: number; error: string };

/** A normalized URL is never empty, so an empty first entry marks a refused URL. */
const REFUSED = '';

export function encodeParsedUrls(
  parsed: ReadonlyArray<FrontierUrl | FrontierUrlRejection>,
): string {
  const flat: string[] = new Array(parsed.length * 3);
  for (let index = 0; index < parsed.length; index += 1) {
    const entry = parsed[index];
    const at = index * 3;
    if (typeof entry === 'string') {
      flat[at] = REFUSED;
      flat[at + 1] = entry;
      flat[at + 2] = REFUSED;
    } else {
      flat[at] = entry.url;
      flat[at + 1] = entry.urlHash;
      flat[at + 2] = entry.domain;
    }
  }
  return JSON.stringify(flat);
}

export function decodeParsedUrls(text: string): Array<FrontierUrl | FrontierUrlRejection> {
  const flat = JSON.parse(text) as string[];
  const parsed = new Array<FrontierUrl | FrontierUrlRejection>(flat.length / 3);
  for (let index = 0; index < parsed.length; index += 1) {
    const at = index * 3;
    parsed[index] =
      flat[at] === REFUSED
        ? (flat[at + 1] as FrontierUrlRejection)
        : { url: flat[at], urlHash: flat[at + 1], domain: flat[at + 2] };
  }
  return parsed;
}
