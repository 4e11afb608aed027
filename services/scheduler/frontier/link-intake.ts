import { parseFrontierUrl } from './frontier-url';
import { isListPage, isNofollowLink, linkRankOffset } from './priority-rank';
import type { AdmissionOutcome, AdmissionRequest, UrlAdmission } from './url-admission';
import { isRenderedResult, type ReportResult } from './wire-types';
import type { WriteBatch } from './write-batch';

/** What became of the links of one report (for metrics). */
export type LinkOutcome = AdmissionOutcome | 'nofollow' | 'invalid_url';

/** One result's links, normalized and hashed, before anything is decided. */
interface PreparedLinkList {
  requests: AdmissionRequest[];
  nofollowCount: number;
  invalidCount: number;
}

/** A report's link lists by the url_hash of the result that carried them. */
export type PreparedLinks = ReadonlyMap<string, PreparedLinkList>;

/**
 * Turns the link lists of applied rendered results (not api ones: see isRenderedResult) into
 * admission requests: nofollow links are skipped, URLs normalized (the downloader already
 * normalizes; this is the receiver's check) and hashed, ranked by where they stood on their page,
 * and de-duplicated across the report keeping the best rank.
 *
 * Preparing is pure and runs before the report takes the mutation lock; only the links of results
 * actually applied (their URL was still held by the lease) are then staged.
 */
export class LinkIntake {
  constructor(
    private readonly admission: UrlAdmission,
    private readonly onOutcome: (outcome: LinkOutcome, count: number) => void,
  ) {}

  prepare(results: readonly ReportResult[]): PreparedLinks {
    const prepared = new Map<string, PreparedLinkList>();
    for (const result of results) {
      // An api result has no links of its own: the URL keeps those its last render found.
      if (result.link_list === null || !isRenderedResult(result) || prepared.has(result.url_hash)) {
        continue;
      }
      const links = result.link_list;
      const isOnListPage = isListPage(links);
      const list: PreparedLinkList = { requests: [], nofollowCount: 0, invalidCount: 0 };
      for (const link of links) {
        if (isNofollowLink(link)) {
          list.nofollowCount += 1;
          continue;
        }
        const target = parseFrontierUrl(link.url);
        if (typeof target === 'string') {
          list.invalidCount += 1;
          continue;
        }
        list.requests.push({
          target,
          seedPriorityRank: null,
          priorityRankOffset: linkRankOffset(link.dom_position, isOnListPage),
          isSeed: false,
        });
      }
      prepared.set(result.url_hash, list);
    }
    return prepared;
  }

  /** Stages the admission of the links of the results whose URLs were applied. */
  async stage(
    batch: WriteBatch,
    prepared: PreparedLinks,
    appliedUrlHashes: readonly string[],
    nowMs: number,
  ): Promise<void> {
    const requestsByHash = new Map<string, AdmissionRequest>();
    for (const urlHash of appliedUrlHashes) {
      const list = prepared.get(urlHash);
      if (list === undefined) continue;
      this.onOutcome('nofollow', list.nofollowCount);
      this.onOutcome('invalid_url', list.invalidCount);
      for (const request of list.requests) {
        const known = requestsByHash.get(request.target.urlHash);
        if (known === undefined || request.priorityRankOffset < known.priorityRankOffset) {
          requestsByHash.set(request.target.urlHash, request);
        }
      }
    }
    if (requestsByHash.size === 0) return;
    const outcomes = await this.admission.stage(batch, [...requestsByHash.values()], nowMs);
    const tally = new Map<LinkOutcome, number>();
    for (const outcome of outcomes) tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
    for (const [outcome, count] of tally) this.onOutcome(outcome, count);
  }
}
