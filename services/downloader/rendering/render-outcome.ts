import type { AddressCategory } from '../egress/special-purpose-ranges';
import type { ApiEndpointCandidate } from './api-endpoint-evidence';
import type { PageStatistics, RenderedPage } from './rendered-page';

/** The contract's `fail_reason` values (extend only by adding). */
export const FAIL_REASONS = [
  'dns_resolution_failed',
  'connection_failed',
  'tls_failed',
  'navigation_timeout',
  'wait_selector_timeout',
  'http_client_error',
  'http_server_error',
  'robots_disallowed', // decided by the politeness layer, never produced by the engine
  'browser_crashed',
  'content_too_large',
  'challenge_detected',
  'origin_throttled',
] as const;
export type FailReason = (typeof FAIL_REASONS)[number];

/** What the engine is asked to do (the engine's own API, so camelCase). */
export interface RenderRequest {
  url: string;
  /** false: plain HTTP GET (robots.txt, sitemap.xml, probes), no browser. */
  shouldRender: boolean;
  /** CSS selector waited for first; its text decides `empty`. Ignored when not rendering. */
  waitSelector?: string | null;
  /** Bounds the whole fetch or render (queueing for a free page not included). */
  timeoutMs: number;
  /** Validators from the previous fetch: sent as If-None-Match / If-Modified-Since. */
  etag?: string | null;
  /** `YYYY-MM-DDTHH:MM:SSZ`. */
  lastModifiedAt?: string | null;
  /**
   * Called once, just before the request leaves for the origin (the navigation starts, or the
   * plain GET is sent); never called when nothing was sent (refusal, no browser, invalid
   * selector). The rate-limit layer dates the domain's last request from here: a render can wait
   * for a page or a browser relaunch after its slot was granted, and the origin must never see
   * two requests closer than the interval.
   */
  onDispatch?: () => void;
  /**
   * Called once, when the origin's first answer to the request arrives — a response head, a
   * redirect, or a failure of the main document. An answer cannot precede the request, so from
   * then on the request has certainly reached the origin: the rate-limit layer spaces the next
   * request from here, whatever the latency between dispatch and arrival was.
   */
  onOriginAnswered?: () => void;
}

export interface PageOutcome {
  kind: 'page';
  page: RenderedPage;
  statistics: PageStatistics;
  /** A rendered page whose content came from one of its own JSON answers (v2 hint evidence). */
  apiEndpointCandidate?: ApiEndpointCandidate;
}

/** The origin answered 304 to our validators: nothing to store. */
export interface NotModifiedOutcome {
  kind: 'not_modified';
  url: string;
  urlHash: string;
  /** From the 304 when it carries one, else the validator we sent. */
  etag: string | null;
  lastModifiedAt: string | null;
  fetchedAt: string;
}

export interface FailedOutcome {
  kind: 'failed';
  failReason: FailReason;
  message: string;
  /** Status of the main document when the failure is an HTTP status (or a challenge page). */
  httpStatus?: number;
  fetchedAt: string;
}

export type RefusalReason =
  | 'destination_refused'
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'credentials_not_allowed'
  | 'invalid_wait_selector';

/**
 * Not attempted (or stopped before contacting the destination) because the request itself is
 * unacceptable: the service layer answers 4xx. No origin was contacted for the refused target.
 */
export interface RefusedOutcome {
  kind: 'refused';
  refusalReason: RefusalReason;
  message: string;
  /** For `destination_refused`: why the address is not allowed. */
  addressCategory?: AddressCategory | 'invalid_address';
}

export type RenderOutcome = PageOutcome | NotModifiedOutcome | FailedOutcome | RefusedOutcome;
