import { EgressError } from '../egress/egress-error';
import type { DestinationResolver } from '../egress/destination-resolver';
import { plainHttpFetch } from '../egress/plain-http-fetch';
import { contractTimeToHttpDate } from './contract-time';
import { failReasonForHttpStatus } from './failure-classification';
import { failedOutcome, notModifiedOutcome, outcomeOfEgressError } from './outcome-builders';
import { assemblePageOutcome } from './page-object-assembly';
import type { RenderOutcome, RenderRequest } from './render-outcome';
import { decodeResponseText } from './response-text';

export interface UnrenderedFetchSettings {
  readonly resolver: DestinationResolver;
  readonly userAgent: string;
  readonly maxBodyBytes: number;
  readonly maxRedirectCount: number;
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/**
 * `should_render = false`: a plain GET (robots.txt, sitemap.xml, probes) through the same safe
 * egress, turned into the same page object shape — `is_rendered` false, the raw body in
 * `response_body`, no HTML, no network log / console errors / links, zero XHR counts.
 * A 4xx/5xx is a failure like for rendering (the status is kept: a robots.txt 404 means "allow all"
 * to the politeness layer, which decides that, not this function).
 */
export async function fetchWithoutRendering(
  url: string,
  request: RenderRequest,
  settings: UnrenderedFetchSettings,
): Promise<RenderOutcome> {
  const startedAt = new Date();
  let response;
  request.onDispatch?.();
  try {
    response = await plainHttpFetch(url, {
      resolver: settings.resolver,
      userAgent: settings.userAgent,
      timeoutMs: request.timeoutMs,
      maxBodyBytes: settings.maxBodyBytes,
      maxRedirectCount: settings.maxRedirectCount,
      conditional: {
        ifNoneMatch: request.etag ?? null,
        ifModifiedSince: contractTimeToHttpDate(request.lastModifiedAt) ?? null,
      },
      onFirstAnswer: request.onOriginAnswered,
    });
  } catch (error) {
    if (error instanceof EgressError) return outcomeOfEgressError(error, startedAt);
    throw error;
  }
  const headers = {
    etag: headerValue(response.headers.etag) ?? undefined,
    'last-modified': headerValue(response.headers['last-modified']) ?? undefined,
  };
  if (response.status === 304) {
    return notModifiedOutcome(url, headers, request, startedAt);
  }
  const statusFailure = failReasonForHttpStatus(response.status);
  if (statusFailure !== undefined) {
    return failedOutcome(
      statusFailure,
      `${response.finalUrl} answered ${response.status}`,
      startedAt,
      response.status,
    );
  }
  const contentType = headerValue(response.headers['content-type']);
  const text = decodeResponseText(response.body, contentType);
  return assemblePageOutcome({
    url,
    finalUrl: response.finalUrl,
    httpStatus: response.status,
    isRendered: false,
    renderedHtml: null,
    responseBody: text,
    content: response.body,
    contentType,
    title: null,
    lang: null,
    etag: headers.etag ?? null,
    lastModifiedHeader: headers['last-modified'] ?? null,
    fetchedAt: startedAt,
    renderDurationMs: Date.now() - startedAt.getTime(),
    networkLog: [],
    consoleErrors: [],
    links: [],
    textCharacterCount: text.length,
    isContentBlank: text.trim() === '',
  });
}
