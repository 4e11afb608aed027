import type { RenderResult } from './page-record';

/** The part of a web page object (engine or POST /v1/render answer) the benchmark checks. */
export interface WebPageLike {
  readonly fetch_status: string;
  readonly network_log: ReadonlyArray<{ readonly url: string; readonly type: string }>;
  readonly link_list: readonly unknown[];
}

/** A page whose content is blank (`empty`) did not render what the bench page builds: a failure. */
export function resultOfWebPage(page: WebPageLike): RenderResult {
  if (page.fetch_status !== 'done') {
    return { isSuccess: false, failure: `fetch_status ${page.fetch_status}` };
  }
  return {
    isSuccess: true,
    xhrUrls: page.network_log.filter((entry) => entry.type === 'xhr').map((entry) => entry.url),
    linkCount: page.link_list.length,
  };
}
