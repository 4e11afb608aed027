import type { RenderResult } from './page-record';

/** The part of a web page object (engine or POST /v1/render answer) the benchmark checks. */
export interface WebPageLike {
  readonly fetch_status: string;
  readonly network_log: ReadonlyArray<{
    readonly url: string;
    readonly type: string;
    readonly http_status: number | null;
  }>;
  readonly link_list: readonly unknown[];
}

/** A page whose content is blank (`empty`) did not render what the bench page builds: a failure. */
export function resultOfWebPage(page: WebPageLike): RenderResult {
  if (page.fetch_status !== 'done') {
    return { isSuccess: false, failure: `fetch_status ${page.fetch_status}` };
  }
  return {
    isSuccess: true,
    xhrUrls: answeredXhrUrls(page.network_log),
    linkCount: page.link_list.length,
  };
}

/**
 * URLs of the xhr entries that carry the origin's answer. An entry without one (http_status null)
 * is a call the page made whose answer the render lost — on the way (the proxy) or by not waiting
 * for it: as much a miss as a call not recorded at all.
 */
export function answeredXhrUrls(networkLog: WebPageLike['network_log']): string[] {
  return networkLog
    .filter((entry) => entry.type === 'xhr' && entry.http_status !== null)
    .map((entry) => entry.url);
}
