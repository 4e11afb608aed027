import type { ClientRequest, IncomingMessage } from 'node:http';

/**
 * When the proxy may send a request again because the origin closed a kept-alive connection under
 * it — what a browser does on a direct connection, and what a forwarding proxy must do as well.
 *
 * An origin closes an idle keep-alive connection when its own timer says so; a request written to
 * that connection in the same instant meets a closed socket ("socket hang up", ECONNRESET) before
 * any byte of an answer. The origin never processed it. Chromium resends such a request on its own
 * connections, but behind the proxy it only sees the proxy drop the request — a script, stylesheet
 * or XHR of the page lost (seen in `npm run bench:render`, 2026-12-02: about one request in
 * 15,000, once every run or two of 6,500 proxied requests — a page that never built its content,
 * failed after 30 s, or an XHR without its answer in network_log).
 *
 * The request is sent again only when that cannot do harm: the connection was reused (a fresh one
 * that fails is a real failure), no answer had begun, and the request is idempotent with no body
 * (RFC 9110 §9.2.2) — nothing the origin could have acted on twice, nothing to buffer for a replay.
 */

/** Attempts of one request in all: the agent may hold more than one connection the origin closed. */
export const MAX_ATTEMPTS_ON_CLOSED_CONNECTIONS = 3;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

/** Errors of a connection the origin closed or reset before answering. */
const CLOSED_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/** An idempotent request without a body: it can be written again as it came. */
export function isReplayableRequest(request: IncomingMessage): boolean {
  const { headers } = request;
  const hasBody =
    headers['transfer-encoding'] !== undefined ||
    (headers['content-length'] !== undefined && headers['content-length'] !== '0');
  return !hasBody && IDEMPOTENT_METHODS.has(request.method ?? '');
}

/** The attempt failed on a reused connection the origin had closed, before any answer. */
export function isClosedReusedConnection(
  upstream: ClientRequest,
  error: unknown,
  hasAnswerBegun: boolean,
): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (
    upstream.reusedSocket &&
    !hasAnswerBegun &&
    code !== undefined &&
    CLOSED_CONNECTION_CODES.has(code)
  );
}
