import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { normalizeUrl, UrlNormalizationError } from '../../common/url/normalize-url';
import { DestinationResolver } from './destination-resolver';
import { EgressError, toEgressError } from './egress-error';
import { pinnedLookup } from './pinned-lookup';
import { ACCEPTED_CONTENT_ENCODINGS, readResponseBody } from './response-body-reader';
import { CRAWLER_PRODUCT_TOKEN, CRAWLER_VERSION } from '../../common/config/crawler-identity';

/** The default honest User-Agent: who we are and where to complain. */
export const DEFAULT_CRAWLER_USER_AGENT = `${CRAWLER_PRODUCT_TOKEN}/${CRAWLER_VERSION} (+https://example.invalid/contact)`;

export interface ConditionalRequestHeaders {
  /** Sent as If-None-Match. */
  readonly ifNoneMatch?: string | null;
  /** An HTTP-date, sent as If-Modified-Since. */
  readonly ifModifiedSince?: string | null;
}

export interface PlainHttpFetchOptions {
  readonly resolver: DestinationResolver;
  readonly userAgent?: string;
  /** Bounds the whole fetch, all redirect hops included. */
  readonly timeoutMs: number;
  /** Decompressed body bytes. */
  readonly maxBodyBytes: number;
  readonly maxRedirectCount?: number;
  /** Only sent on the first hop: a validator belongs to the URL it was issued for. */
  readonly conditional?: ConditionalRequestHeaders;
  readonly accept?: string;
  /**
   * Called once, when the first hop got its response head or failed: the moment the request is
   * known to have reached the origin (or never will). The rate limit spaces requests from it.
   */
  readonly onFirstAnswer?: () => void;
}

export interface PlainHttpResponse {
  /** Normalized URL that was asked for. */
  readonly requestedUrl: string;
  /** Normalized URL of the last hop. */
  readonly finalUrl: string;
  /** Status of the last hop; 304 is returned as is, the caller decides what it means. */
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Decompressed body; empty for 304 and bodiless responses. */
  readonly body: Buffer;
  readonly redirectCount: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function normalizeOrFail(url: string, base?: string): string {
  try {
    return normalizeUrl(url, base);
  } catch (error) {
    if (error instanceof UrlNormalizationError) throw new EgressError('invalid_url', error.message);
    throw error;
  }
}

function requestHeaders(options: PlainHttpFetchOptions, isFirstHop: boolean): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {
    'user-agent': options.userAgent ?? DEFAULT_CRAWLER_USER_AGENT,
    accept: options.accept ?? '*/*',
    'accept-encoding': ACCEPTED_CONTENT_ENCODINGS,
  };
  if (isFirstHop && options.conditional?.ifNoneMatch) {
    headers['if-none-match'] = options.conditional.ifNoneMatch;
  }
  if (isFirstHop && options.conditional?.ifModifiedSince) {
    headers['if-modified-since'] = options.conditional.ifModifiedSince;
  }
  return headers;
}

/** One hop: safe lookup, connect to the checked address, send, read the response head. */
async function sendRequest(
  url: string,
  headers: OutgoingHttpHeaders,
  options: PlainHttpFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const target = new URL(url);
  const resolved = await options.resolver.resolve(target.hostname);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = send(target, {
      method: 'GET',
      headers,
      lookup: pinnedLookup(resolved),
      signal,
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end();
  });
}

/**
 * A plain GET (no browser) for robots.txt, sitemap.xml and probes, with the same outbound safety as
 * rendering: every hop's destination is resolved and checked before connecting, redirects are
 * followed by hand (bounded), and body size and total time are bounded. Throws EgressError.
 */
export async function plainHttpFetch(
  url: string,
  options: PlainHttpFetchOptions,
): Promise<PlainHttpResponse> {
  const requestedUrl = normalizeOrFail(url);
  const maxRedirectCount = options.maxRedirectCount ?? 5;
  let hasAnswered = false;
  const firstAnswer = () => {
    if (hasAnswered) return;
    hasAnswered = true;
    options.onFirstAnswer?.();
  };
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  let currentUrl = requestedUrl;
  try {
    for (let redirectCount = 0; ; redirectCount += 1) {
      const headers = requestHeaders(options, redirectCount === 0);
      const response = await sendRequest(currentUrl, headers, options, abort.signal);
      firstAnswer();
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        response.resume();
        if (redirectCount >= maxRedirectCount) {
          throw new EgressError(
            'too_many_redirects',
            `more than ${maxRedirectCount} redirects from ${requestedUrl}`,
          );
        }
        currentUrl = normalizeOrFail(location, currentUrl);
        continue;
      }
      const body = await readResponseBody(response, options.maxBodyBytes, currentUrl);
      return {
        requestedUrl,
        finalUrl: currentUrl,
        status,
        headers: response.headers,
        body,
        redirectCount,
      };
    }
  } catch (error) {
    firstAnswer();
    if (abort.signal.aborted) {
      throw new EgressError(
        'timeout',
        `fetching ${requestedUrl} took longer than ${options.timeoutMs} ms`,
      );
    }
    throw toEgressError(error);
  } finally {
    clearTimeout(timer);
  }
}
