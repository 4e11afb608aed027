import { isListPage, isNofollowLink } from './priority-rank';
import { isRenderedResult, type LinkItem, type ReportResult } from './wire-types';

/** One page's links sorted before parsing: those to follow, in page order, and what was skipped. */
export interface FollowedLinks {
  followed: LinkItem[];
  nofollowCount: number;
  isListPage: boolean;
}

/**
 * The links a report's results ask the frontier to follow: each page by its result's url_hash (a
 * repeated URL keeps its first result; an api result has none — the URL keeps the links its last
 * render found), and every followed link's URL in one list, in that order — the list that is
 * normalized and hashed, wherever that happens (link-intake.ts, thread-link-preparation.ts). Both
 * sides walk the same body the same way, so the prepared list lines up with the pages.
 */
export function followedLinksOf(results: readonly ReportResult[]): {
  pages: Map<string, FollowedLinks>;
  urls: string[];
} {
  const pages = new Map<string, FollowedLinks>();
  const urls: string[] = [];
  for (const result of results) {
    if (result.link_list === null || !isRenderedResult(result)) continue;
    if (pages.has(result.url_hash)) continue;
    const page: FollowedLinks = {
      followed: [],
      nofollowCount: 0,
      isListPage: isListPage(result.link_list),
    };
    for (const link of result.link_list) {
      if (isNofollowLink(link)) {
        page.nofollowCount += 1;
      } else {
        page.followed.push(link);
        urls.push(link.url);
      }
    }
    pages.set(result.url_hash, page);
  }
  return { pages, urls };
}
