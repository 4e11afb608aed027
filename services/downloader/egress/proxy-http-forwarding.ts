import { IncomingMessage, request as httpRequest, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { createByteLimitStream } from './byte-limit-stream';
import { EgressError, toEgressError } from './egress-error';
import { endToEndRawHeaders } from './hop-by-hop-headers';
import { pinnedLookup } from './pinned-lookup';
import { withoutBrackets } from './ip-address';
import { ProxyContext } from './proxy-context';
import {
  isClosedReusedConnection,
  isReplayableRequest,
  MAX_ATTEMPTS_ON_CLOSED_CONNECTIONS,
} from './stale-connection-retry';

/**
 * Forwards one absolute-form request (`GET http://host/path`), which is how a browser sends plain
 * HTTP through a proxy. The destination is resolved and checked first; only then is a socket
 * opened, to the checked address.
 *
 * A request the origin never received because it closed a reused connection under it is sent
 * again (stale-connection-retry.ts). On any other failure the proxy answers nothing and drops the
 * client connection, so for the page the request got no response at all (http_status null in
 * network_log) — a made-up 403/502 would be counted as an origin error in health_signal. The real
 * reason goes to the failure registry.
 */
export async function forwardProxiedRequest(
  clientRequest: IncomingMessage,
  clientResponse: ServerResponse,
  context: ProxyContext,
): Promise<void> {
  let target: URL;
  try {
    target = new URL(clientRequest.url ?? '');
  } catch {
    clientResponse.writeHead(400).end('absolute-form http:// request required');
    return;
  }
  if (target.protocol !== 'http:') {
    clientResponse.writeHead(400).end('only http:// is forwarded; use CONNECT for https');
    return;
  }
  const port = Number(target.port || 80);
  // A client that went away (navigation ended, page recycled) is not an origin failure.
  let isClientGone = false;
  clientResponse.on('close', () => {
    isClientGone = !clientResponse.writableFinished;
  });
  const fail = (error: unknown): void => {
    if (!isClientGone) context.recordFailure(target.hostname, port, toEgressError(error));
    clientResponse.destroy();
  };

  let resolved;
  try {
    resolved = await context.resolveTarget(target.hostname, port);
  } catch (error) {
    fail(error);
    return;
  }

  const upstreamOptions = {
    host: withoutBrackets(target.hostname),
    port,
    method: clientRequest.method,
    path: `${target.pathname}${target.search}`,
    headers: endToEndRawHeaders(clientRequest.rawHeaders),
    agent: context.agent,
    lookup: pinnedLookup(resolved),
    timeout: context.idleTimeoutMs,
  };
  const isReplayable = isReplayableRequest(clientRequest);
  // One attempt; a later one only after the origin closed a reused connection under the previous.
  const send = (attempt: number): void => {
    let hasAnswerBegun = false;
    const upstream = httpRequest(upstreamOptions);
    upstream.on('timeout', () =>
      upstream.destroy(
        new EgressError('timeout', `no data from ${target.host} for ${context.idleTimeoutMs} ms`),
      ),
    );
    upstream.on('error', (error) => {
      if (
        isReplayable &&
        attempt < MAX_ATTEMPTS_ON_CLOSED_CONNECTIONS &&
        !isClientGone &&
        isClosedReusedConnection(upstream, error, hasAnswerBegun)
      ) {
        context.onClosedConnectionRetry();
        send(attempt + 1);
        return;
      }
      fail(error);
    });
    upstream.on('response', (upstreamResponse) => {
      hasAnswerBegun = true;
      const declaredLength = Number(upstreamResponse.headers['content-length'] ?? 0);
      if (declaredLength > context.maxResponseBytes) {
        upstreamResponse.destroy();
        fail(
          new EgressError('content_too_large', `${target.href} declares ${declaredLength} bytes`),
        );
        return;
      }
      clientResponse.writeHead(
        upstreamResponse.statusCode ?? 502,
        upstreamResponse.statusMessage,
        endToEndRawHeaders(upstreamResponse.rawHeaders),
      );
      pipeline(
        upstreamResponse,
        createByteLimitStream(context.maxResponseBytes, target.href),
        clientResponse,
        (error) => {
          if (error !== undefined && error !== null) fail(error);
        },
      );
    });
    if (isReplayable) {
      // No body to forward (isReplayableRequest): the request is complete as it is, and can be
      // written again on another connection.
      upstream.end();
      return;
    }
    clientRequest.on('error', () => upstream.destroy());
    clientRequest.pipe(upstream);
  };
  send(1);
}
