import type { EgressFailureKind } from '../egress/egress-error';
import type { FailReason } from './render-outcome';

/**
 * Maps what went wrong onto the contract's fail_reason. Three sources:
 *  - the main document's HTTP status,
 *  - Chromium's net error text (`net::ERR_…`) for a navigation that got no response,
 *  - the egress layer's own failure kinds (the proxy resolves and connects on the browser's behalf,
 *    so DNS and connect failures are known there, not in Chromium).
 */

/** undefined for statuses that are not failures (1xx–3xx). */
export function failReasonForHttpStatus(status: number): FailReason | undefined {
  if (status === 429) return 'origin_throttled';
  if (status >= 400 && status < 500) return 'http_client_error';
  if (status >= 500) return 'http_server_error';
  return undefined;
}

/** `destination_refused` and `invalid_url` are not failures of the origin: the caller gets a refusal. */
export function failReasonForEgressFailure(
  kind: EgressFailureKind,
): FailReason | 'destination_refused' | 'invalid_url' {
  switch (kind) {
    case 'destination_refused':
    case 'invalid_url':
      return kind;
    case 'dns_resolution_failed':
    case 'connection_failed':
    case 'tls_failed':
    case 'content_too_large':
      return kind;
    case 'timeout':
      return 'navigation_timeout';
    case 'too_many_redirects':
      // A redirect loop is the site's fault but not a server error; the contract has no better value.
      return 'http_client_error';
  }
}

/** Classifies Chromium's net error text, e.g. `net::ERR_NAME_NOT_RESOLVED`. */
export function failReasonForNetError(errorText: string): FailReason {
  const code = errorText.replace(/^.*?(ERR_[A-Z0-9_]+).*$/s, '$1');
  if (/^ERR_(NAME_|DNS_)/.test(code)) return 'dns_resolution_failed';
  if (/^ERR_(CERT|SSL|BAD_SSL|TLS|ECH|CERTIFICATE)/.test(code)) return 'tls_failed';
  if (code === 'ERR_TOO_MANY_REDIRECTS') return 'http_client_error';
  if (code === 'ERR_FILE_TOO_BIG') return 'content_too_large';
  if (code === 'ERR_TIMED_OUT') return 'navigation_timeout';
  return 'connection_failed';
}
