/**
 * The benchmark's pages as data: N client-side-rendered item pages spread round-robin over the
 * bench hosts, each with a fixed plan of XHRs (content, a related call, failing calls, a late
 * XMLHttpRequest). The bench site serves exactly this plan and the verifier expects exactly it, so
 * "every XHR of every page is in its network_log" is checked against a list that cannot drift
 * from what the pages really request.
 *
 * Every XHR URL carries the item number, so an XHR of one page can never be mistaken for
 * another page's (pages are reused across renders by the engine and the bare loop).
 */

export interface PlannedXhr {
  /** Path and query on the page's own host; the query tells the bench site how to answer. */
  readonly path: string;
  readonly api: 'fetch' | 'xmlhttprequest';
  /** Started LATE_XHR_DELAY_MS after the load event instead of at once. */
  readonly isLate: boolean;
  /** Its answer builds the `#content` element (the wait selector). */
  readonly fillsContent: boolean;
}

export interface BenchPage {
  readonly itemNumber: number;
  readonly hostIndex: number;
  /** `/items/<n>` */
  readonly path: string;
  /** Absolute, normalized (what every contender is asked to render). */
  readonly url: string;
  readonly xhrPlan: readonly PlannedXhr[];
  /** Absolute URLs of `xhrPlan`, as Chromium reports them in the network log. */
  readonly expectedXhrUrls: readonly string[];
}

/** How long the content XHR takes: the content appears well after the load event. */
export const CONTENT_XHR_DELAY_MS = 150;
/** Like a late analytics or widget call: only a network-quiet wait catches it. */
export const LATE_XHR_DELAY_MS = 200;

/** Statuses of the failing XHRs, cycled over the pages. */
const FAILING_STATUSES = [500, 429, 403, 503] as const;

/** Links in each page's main content (arriving by XHR): the next items, on other hosts. */
export const MAIN_LINK_COUNT = 3;

function xhrPlanOf(itemNumber: number): PlannedXhr[] {
  const api = `/api/items/${itemNumber}`;
  const plan: PlannedXhr[] = [
    {
      path: `${api}/content?delay_ms=${CONTENT_XHR_DELAY_MS}`,
      api: 'fetch',
      isLate: false,
      fillsContent: true,
    },
    { path: `${api}/related`, api: 'fetch', isLate: false, fillsContent: false },
    {
      path: `${api}/reviews?status=${FAILING_STATUSES[itemNumber % FAILING_STATUSES.length]}`,
      api: 'fetch',
      isLate: false,
      fillsContent: false,
    },
  ];
  if (itemNumber % 3 === 0) {
    plan.push({
      path: `${api}/stock?status=500`,
      api: 'xmlhttprequest',
      isLate: false,
      fillsContent: false,
    });
  }
  plan.push({
    path: `${api}/recommendations`,
    api: 'xmlhttprequest',
    isLate: true,
    fillsContent: false,
  });
  return plan;
}

/** The page of item `itemNumber` lives on host `itemNumber mod hosts`. */
export function benchPageUrl(baseUrls: readonly string[], itemNumber: number): string {
  return `${baseUrls[itemNumber % baseUrls.length]}/items/${itemNumber}`;
}

/** `count` pages over `baseUrls` (`http://<host>:<port>`, no trailing slash). */
export function buildBenchPageSet(baseUrls: readonly string[], count: number): BenchPage[] {
  return Array.from({ length: count }, (_, itemNumber) => {
    const hostIndex = itemNumber % baseUrls.length;
    const xhrPlan = xhrPlanOf(itemNumber);
    return {
      itemNumber,
      hostIndex,
      path: `/items/${itemNumber}`,
      url: benchPageUrl(baseUrls, itemNumber),
      xhrPlan,
      expectedXhrUrls: xhrPlan.map((xhr) => `${baseUrls[hostIndex]}${xhr.path}`),
    };
  });
}

/** Item numbers the main content of `itemNumber` links to (wrapping around the set). */
export function mainLinkTargets(itemNumber: number, pageCount: number): number[] {
  return Array.from(
    { length: MAIN_LINK_COUNT },
    (_, offset) => (itemNumber + 1 + offset) % pageCount,
  );
}
