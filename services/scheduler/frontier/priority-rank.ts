import type { RuleSummary } from './rule-book';
import type { DomPosition, LinkItem } from './wire-types';

/** CONTRACT.md §三: a partial verdict queues the domain's URLs at `priority_rank + 1000`. */
export const PARTIAL_VERDICT_RANK_PENALTY = 1000;

/**
 * How far behind its domain's base rank a discovered link is served, by where it stood on its page.
 * Links in the main content come first — on a list page (many main links: an index, a category, a
 * search result) ahead of everything, since those are the pages a crawl exists to reach; chrome
 * (navigation, header, footer) mostly repeats on every page and comes last.
 */
const LINK_POSITION_RANK_OFFSETS: Readonly<Record<DomPosition, number>> = {
  main: 10,
  other: 20,
  aside: 30,
  navigation: 40,
  header: 40,
  footer: 50,
};
const LIST_PAGE_MAIN_LINK_RANK_OFFSET = 0;

/** A page with at least this many followable links in its main content is a list page. */
export const LIST_PAGE_MAIN_LINK_COUNT = 10;

export function linkRankOffset(position: DomPosition, isOnListPage: boolean): number {
  return position === 'main' && isOnListPage
    ? LIST_PAGE_MAIN_LINK_RANK_OFFSET
    : LINK_POSITION_RANK_OFFSETS[position];
}

export function isNofollowLink(link: LinkItem): boolean {
  // Most links carry no rel at all, and splitting allocates: split only where the token can be.
  if (!link.rel.includes('nofollow')) return false;
  return link.rel.split(/\s+/).includes('nofollow');
}

export function isListPage(links: readonly LinkItem[]): boolean {
  let mainLinkCount = 0;
  for (const link of links) {
    if (link.dom_position === 'main' && !isNofollowLink(link)) mainLinkCount += 1;
  }
  return mainLinkCount >= LIST_PAGE_MAIN_LINK_COUNT;
}

/** What a URL carries towards its rank before its domain's rule is known. */
export interface RankInputs {
  seed_priority_rank: number | null;
  priority_rank_offset: number;
}

/** The rank a URL is served at under `rule`: the seed's or the rule's base, its offset, the verdict. */
export function effectiveRank(inputs: RankInputs, rule: RuleSummary): number {
  const base = inputs.seed_priority_rank ?? rule.priorityRank;
  const penalty = rule.verdict === 'partial' ? PARTIAL_VERDICT_RANK_PENALTY : 0;
  return base + inputs.priority_rank_offset + penalty;
}
