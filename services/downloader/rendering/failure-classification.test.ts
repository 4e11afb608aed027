import {
  failReasonForEgressFailure,
  failReasonForHttpStatus,
  failReasonForNetError,
} from './failure-classification';

describe('failReasonForHttpStatus', () => {
  test.each([
    [200, undefined],
    [304, undefined],
    [400, 'http_client_error'],
    [403, 'http_client_error'],
    [404, 'http_client_error'],
    [429, 'origin_throttled'],
    [500, 'http_server_error'],
    [503, 'http_server_error'],
  ])('%i → %s', (status, reason) => {
    expect(failReasonForHttpStatus(status)).toBe(reason);
  });
});

describe('failReasonForNetError', () => {
  test.each([
    ['net::ERR_NAME_NOT_RESOLVED', 'dns_resolution_failed'],
    ['net::ERR_NAME_NOT_RESOLVED at http://x.test/', 'dns_resolution_failed'],
    ['net::ERR_DNS_TIMED_OUT', 'dns_resolution_failed'],
    ['net::ERR_CERT_AUTHORITY_INVALID', 'tls_failed'],
    ['net::ERR_CERT_DATE_INVALID', 'tls_failed'],
    ['net::ERR_SSL_PROTOCOL_ERROR', 'tls_failed'],
    ['net::ERR_BAD_SSL_CLIENT_AUTH_CERT', 'tls_failed'],
    ['net::ERR_CONNECTION_REFUSED', 'connection_failed'],
    ['net::ERR_CONNECTION_RESET', 'connection_failed'],
    ['net::ERR_EMPTY_RESPONSE', 'connection_failed'],
    ['net::ERR_TUNNEL_CONNECTION_FAILED', 'connection_failed'],
    ['net::ERR_TOO_MANY_REDIRECTS', 'http_client_error'],
    ['net::ERR_TIMED_OUT', 'navigation_timeout'],
    ['something unexpected', 'connection_failed'],
  ])('%s → %s', (errorText, reason) => {
    expect(failReasonForNetError(errorText)).toBe(reason);
  });
});

describe('failReasonForEgressFailure', () => {
  test.each([
    ['destination_refused', 'destination_refused'],
    ['invalid_url', 'invalid_url'],
    ['dns_resolution_failed', 'dns_resolution_failed'],
    ['connection_failed', 'connection_failed'],
    ['tls_failed', 'tls_failed'],
    ['timeout', 'navigation_timeout'],
    ['content_too_large', 'content_too_large'],
    ['too_many_redirects', 'http_client_error'],
  ] as const)('%s → %s', (kind, reason) => {
    expect(failReasonForEgressFailure(kind)).toBe(reason);
  });
});
