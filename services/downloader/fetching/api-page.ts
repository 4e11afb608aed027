import { textOfJsonValue, valueAtPointer } from '../../common/api-endpoint';
import { urlHash } from '../../common/url/url-hash';
import { computeHealthSignal } from '../rendering/health-signal';
import type { PageOutcome } from '../rendering/render-outcome';

/**
 * An api task's plain fetch of the page's JSON endpoint, turned into the page's object (CONTRACT.md
 * §七, §八 ApiEndpoint): `url` is the page (the object stands for it), `final_url` the endpoint
 * after redirects, the JSON as `response_body`, nothing rendered so no links, network log or
 * console errors — and a `health_signal` whose counts are 0 (not measured), only
 * `redirect_target_hash` (of the final endpoint URL) says something. `empty` when the value at
 * `content_pointer` carries no text.
 *
 * Undefined when the answer is not JSON or has no value at `content_pointer`: the page is then
 * rendered instead.
 */
export function apiPageOutcome(
  endpointOutcome: PageOutcome,
  pageUrl: string,
  contentPointer: string,
): PageOutcome | undefined {
  const { page, statistics } = endpointOutcome;
  let document: unknown;
  try {
    document = JSON.parse(page.response_body ?? '');
  } catch {
    return undefined;
  }
  const content = valueAtPointer(document, contentPointer);
  if (content === undefined) return undefined;
  const text = textOfJsonValue(content).trim();
  return {
    kind: 'page',
    page: {
      ...page,
      url: pageUrl,
      url_hash: urlHash(pageUrl),
      fetch_status: text === '' ? 'empty' : 'done',
      is_rendered: false,
      rendered_html: null,
      title: null,
      lang: null,
      network_log: [],
      console_errors: [],
      link_list: [],
      // Nothing was rendered: no XHR or console error was seen, so every count is 0.
      health_signal: computeHealthSignal([], [], page.final_url),
    },
    statistics: { ...statistics, text_character_count: text.length, link_count: 0 },
  };
}
