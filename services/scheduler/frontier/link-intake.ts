import { followedLinksOf } from './followed-links';
import type { PreparedUrl, UrlListParser } from './frontier-url';
import { decodePreparedUrls } from './link-preparation-protocol';
import { linkRankOffset } from './priority-rank';
import type { AdmissionOutcome, AdmissionRequest, UrlAdmission } from './url-admission';
import type { ReportResult } from './wire-types';
import type { WriteBatch } from './write-batch';

/** What became of the links of one report (for metrics). */
export type LinkOutcome = AdmissionOutcome | 'nofollow' | 'invalid_url';

/** One result's links, normalized and hashed, before anything is decided. */
interface PreparedLinkList {
  requests: AdmissionRequest[];
  /** Links the preparing thread found in the frontier already: duplicates, by url_hash. */
  knownUrlHashes: string[];
  nofollowCount: number;
  invalidCount: number;
}

/** A report's link lists by the url_hash of the result that carried them. */
export type PreparedLinks = ReadonlyMap<string, PreparedLinkList>;

/**
 * Turns the link lists of applied rendered results (not api ones: see isRenderedResult) into
 * admission requests: nofollow links are skipped, URLs normalized (the downloader already
 * normalizes; this is the receiver's check) and hashed — on the HTTP thread before the report was
 * forwarded (thread-link-preparation.ts), or else by `parseUrls` on a link-preparation thread
 * (link-preparation-pool.ts) — ranked by where they stood on their page, and de-duplicated across
 * the report keeping the best rank.
 *
 * Preparing needs nothing of the frontier and runs before the report takes the mutation lock; only
 * the links of results actually applied (their URL was still held by the lease) are then staged.
 */
export class LinkIntake {
  constructor(
    private readonly admission: UrlAdmission,
    private readonly parseUrls: UrlListParser,
    private readonly onOutcome: (outcome: LinkOutcome, count: number) => void,
    /**
     * Whether a link to a URL the frontier holds is a plain duplicate — true while no URL is
     * dropped (a dropped one may be revived by a link: admission must see it). Asked when the
     * links are prepared, before the report's lock: a URL dropped in between belongs to a domain
     * excluded in between, which a link cannot revive.
     */
    private readonly isKnownLinkDuplicate: () => boolean,
    /** The HTTP thread's preparation of a report's links did not line up with them (a bug). */
    private readonly onPreparationRedone: () => void = () => undefined,
  ) {}

  /**
   * `preparedOnThread`: the followed links' URLs already normalized, hashed and looked up in the
   * known-URL set on the HTTP thread (thread-link-preparation.ts), or undefined —
   * then the link-preparation pool does it. Known links count as duplicates only while
   * isKnownLinkDuplicate holds, asked here either way.
   */
  async prepare(
    results: readonly ReportResult[],
    preparedOnThread?: string,
  ): Promise<PreparedLinks> {
    const { pages, urls } = followedLinksOf(results);
    const isKnownAnswered = this.isKnownLinkDuplicate();
    const targets =
      this.#preparedOnThreadFor(urls, preparedOnThread, isKnownAnswered) ??
      (await this.parseUrls(urls, { isKnownAnswered }));
    if (targets.length !== urls.length) {
      throw new Error(`link preparation answered ${targets.length} of ${urls.length} URLs`);
    }
    const prepared = new Map<string, PreparedLinkList>();
    let nextTarget = 0;
    for (const [urlHash, page] of pages) {
      const list: PreparedLinkList = {
        requests: [],
        knownUrlHashes: [],
        nofollowCount: page.nofollowCount,
        invalidCount: 0,
      };
      for (const link of page.followed) {
        const target = targets[nextTarget];
        nextTarget += 1;
        if (typeof target === 'string') {
          list.invalidCount += 1;
          continue;
        }
        if ('isKnown' in target) {
          list.knownUrlHashes.push(target.urlHash);
          continue;
        }
        list.requests.push({
          target,
          seedPriorityRank: null,
          priorityRankOffset: linkRankOffset(link.dom_position, page.isListPage),
          isSeed: false,
        });
      }
      prepared.set(urlHash, list);
    }
    return prepared;
  }

  /**
   * The HTTP thread's preparation of `urls`, or undefined when there is none or it does not line
   * up with them (the pool then prepares them again: a mismatch is a fault of ours, not the
   * report's, and must not fail it).
   */
  #preparedOnThreadFor(
    urls: readonly string[],
    preparedOnThread: string | undefined,
    isKnownAnswered: boolean,
  ): PreparedUrl[] | undefined {
    if (preparedOnThread === undefined) return undefined;
    try {
      const targets = decodePreparedUrls(preparedOnThread, isKnownAnswered);
      if (targets.length === urls.length) return targets;
    } catch {
      // counted below, like a list of the wrong length
    }
    this.onPreparationRedone();
    return undefined;
  }

  /** Stages the admission of the links of the results whose URLs were applied. */
  async stage(
    batch: WriteBatch,
    prepared: PreparedLinks,
    appliedUrlHashes: readonly string[],
    nowMs: number,
  ): Promise<void> {
    const requestsByHash = new Map<string, AdmissionRequest>();
    const knownUrlHashes = new Set<string>();
    // Counted once per report, not per result: a labelled counter's inc was ~2 % of the main
    // thread when it ran twice for every result of every report (a 1M profile).
    let nofollowCount = 0;
    let invalidCount = 0;
    for (const urlHash of appliedUrlHashes) {
      const list = prepared.get(urlHash);
      if (list === undefined) continue;
      nofollowCount += list.nofollowCount;
      invalidCount += list.invalidCount;
      for (const request of list.requests) {
        const known = requestsByHash.get(request.target.urlHash);
        if (known === undefined || request.priorityRankOffset < known.priorityRankOffset) {
          requestsByHash.set(request.target.urlHash, request);
        }
      }
      for (const knownUrlHash of list.knownUrlHashes) knownUrlHashes.add(knownUrlHash);
    }
    this.onOutcome('nofollow', nofollowCount);
    this.onOutcome('invalid_url', invalidCount);
    // Counted once per report like any link (a URL found on two pages is one request), and not
    // twice when the thread could not tell for another copy (admission answers that one).
    let duplicateCount = 0;
    for (const knownUrlHash of knownUrlHashes) {
      if (!requestsByHash.has(knownUrlHash)) duplicateCount += 1;
    }
    if (duplicateCount > 0) this.onOutcome('duplicate_url', duplicateCount);
    if (requestsByHash.size === 0) return;
    const outcomes = await this.admission.stage(batch, [...requestsByHash.values()], nowMs);
    const tally = new Map<LinkOutcome, number>();
    for (const outcome of outcomes) tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    for (const [outcome, count] of tally) this.onOutcome(outcome, count);
  }
}
