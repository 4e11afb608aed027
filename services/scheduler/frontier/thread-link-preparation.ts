import { followedLinksOf } from './followed-links';
import { KnownUrlReader } from './known-url-set';
import { prepareAndEncodeUrls, type KnownUrlTableMessage } from './link-preparation-protocol';
import type { ReportRequest } from './wire-types';

/**
 * A report's links prepared on the HTTP thread, which has the report's body parsed already: its
 * followed links normalized, hashed and looked up in the frontier's known-URL set (as far as the
 * main thread shared its tables), as the text LinkIntake.prepare decodes. Done here instead of on
 * a link-preparation thread, the URLs no longer cross to that thread and back.
 *
 * Known links are marked in full: the main thread decides when it decodes whether they count as
 * duplicates (LinkIntake's isKnownLinkDuplicate), which this thread cannot know.
 */
export class ThreadLinkPreparation {
  readonly #knownUrls = new KnownUrlReader();

  /**
   * Takes a known-URL table the main thread shared (Frontier.watchKnownUrlTables); ignores any
   * other message.
   */
  receive(message: unknown): void {
    const table = message as Partial<KnownUrlTableMessage> | null;
    if (table?.kind === 'known_url_table' && table.table !== undefined) {
      this.#knownUrls.addTable(table.table);
    }
  }

  /** `body`: a report as the contract router checked it. */
  prepareReport(body: unknown): string {
    const { urls } = followedLinksOf((body as ReportRequest).result_list);
    return prepareAndEncodeUrls(urls, this.#knownUrls, 'full');
  }
}
