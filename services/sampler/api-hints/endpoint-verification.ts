import {
  endpointUrlFor,
  matchedCharacterCount,
  textOfJsonValue,
  valueAtPointer,
  wordCharacterCount,
  type ApiEndpoint,
} from '../../common/api-endpoint';
import type { DomainRequests, PageResponse } from '../sampling/downloader-requests';
import { mainTextOf } from './main-text';

/**
 * Fetch failures that speak against the mapping itself (no such endpoint, not to be fetched, too
 * big to serve as a page's content). Every other failure — timeouts, 5xx, a crashed browser, a
 * challenge — says nothing about it: the check is deferred, and an api rule is not demoted for it.
 */
const DEFINITIVE_FAIL_REASONS: ReadonlySet<string> = new Set([
  'http_client_error',
  'robots_disallowed',
  'content_too_large',
]);

/** Share of a page's main text the endpoint's value must carry (v2 brief: 0.8). */
export const VERIFIED_TEXT_SHARE = 0.8;

export interface EndpointVerificationRequest {
  /** The domain's request channel: paced, 429s honoured, through the downloader only. */
  readonly requests: DomainRequests;
  readonly apiEndpoint: ApiEndpoint;
  /** The sample pages (up to 3, each mapped by `apiEndpoint`). */
  readonly pageUrlList: readonly string[];
  readonly waitSelector: string | null;
  readonly plainTimeoutMs: number;
  readonly renderTimeoutMs: number;
}

export type EndpointVerificationOutcome =
  | { readonly kind: 'verified'; readonly note: string }
  /** The endpoint does not stand in for the pages; the rule stays (or goes back to) render. */
  | { readonly kind: 'failed'; readonly note: string }
  /** Nothing learnt (rate-limited, a timeout, a server error): check again soon. */
  | { readonly kind: 'deferred'; readonly note: string };

type PageCheck = { readonly kind: 'carried'; readonly note: string } | EndpointVerificationOutcome;

/**
 * Verifies a mapping the way the contract describes (POST /v1/api-endpoint-hints): on each sample
 * page, the endpoint is fetched through the downloader's POST /v1/render with should_render
 * false, the page is rendered (should_render true, waiting for the rule's wait_selector), and the
 * value at content_pointer must carry at least VERIFIED_TEXT_SHARE of the page's main text,
 * measured with the shared text comparison the downloader's hint uses. Every page must pass; the
 * first that does not ends the check. Throws DownloaderUnavailableError when the downloader
 * itself cannot be used, and the signal's reason on abort.
 */
export async function verifyEndpoint(
  request: EndpointVerificationRequest,
): Promise<EndpointVerificationOutcome> {
  const notes: string[] = [];
  for (const pageUrl of request.pageUrlList) {
    const check = await checkPage(request, pageUrl);
    if (check.kind !== 'carried') return check;
    notes.push(check.note);
  }
  return { kind: 'verified', note: notes.join('; ') };
}

async function checkPage(
  request: EndpointVerificationRequest,
  pageUrl: string,
): Promise<PageCheck> {
  const { requests, apiEndpoint } = request;
  const endpointUrl = endpointUrlFor(apiEndpoint, pageUrl);
  if (endpointUrl === undefined) {
    return { kind: 'failed', note: `${pageUrl}: the mapping does not apply to this page` };
  }
  const answer = await requests.fetch({
    url: endpointUrl,
    shouldRender: false,
    timeoutMs: request.plainTimeoutMs,
  });
  if (answer.kind !== 'page') return notFetched(`endpoint ${endpointUrl}`, answer);
  let json: unknown;
  try {
    json = JSON.parse(answer.page.response_body ?? '');
  } catch {
    return { kind: 'failed', note: `endpoint ${endpointUrl} did not answer JSON` };
  }
  const value = valueAtPointer(json, apiEndpoint.content_pointer);
  if (value === undefined) {
    return {
      kind: 'failed',
      note: `endpoint ${endpointUrl} has no value at "${apiEndpoint.content_pointer}"`,
    };
  }
  const rendered = await requests.fetch({
    url: pageUrl,
    shouldRender: true,
    waitSelector: request.waitSelector,
    timeoutMs: request.renderTimeoutMs,
  });
  if (rendered.kind !== 'page') return notFetched(`page ${pageUrl}`, rendered);
  const mainText = mainTextOf(rendered.page.rendered_html ?? '', request.waitSelector);
  const textCount = wordCharacterCount(mainText);
  if (textCount === 0) return { kind: 'failed', note: `page ${pageUrl} shows no main text` };
  const matchedCount = matchedCharacterCount(mainText, textOfJsonValue(value));
  const measure = `${matchedCount} of ${textCount} characters of ${pageUrl}`;
  return matchedCount >= VERIFIED_TEXT_SHARE * textCount
    ? { kind: 'carried', note: `the endpoint carries ${measure}` }
    : { kind: 'failed', note: `the endpoint carries only ${measure}` };
}

function notFetched(what: string, response: Exclude<PageResponse, { kind: 'page' }>): PageCheck {
  switch (response.kind) {
    case 'rate_limited':
      return {
        kind: 'deferred',
        note: `${what}: rate-limited beyond the wait budget (retry after ${response.retryAfterSeconds} s)`,
      };
    case 'failed':
      return {
        kind: DEFINITIVE_FAIL_REASONS.has(response.failReason) ? 'failed' : 'deferred',
        note: `${what} failed: ${response.failReason}`,
      };
    case 'refused':
      return { kind: 'failed', note: `${what} refused by the downloader: ${response.errorCode}` };
  }
}
