import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Sends a body with a strong ETag (digest of the body) and a Last-Modified date, answering 304
 * when the request's validators match (If-None-Match wins over If-Modified-Since, RFC 9110 §13.2.2).
 */
export function sendWithValidators(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  lastModified: Date,
  cacheControl: string,
): void {
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  response.setHeader('etag', etag);
  response.setHeader('last-modified', lastModified.toUTCString());
  response.setHeader('cache-control', cacheControl);
  const ifNoneMatch = request.headers['if-none-match'];
  const ifModifiedSince = request.headers['if-modified-since'];
  const isNotModified =
    ifNoneMatch !== undefined
      ? ifNoneMatch
          .split(',')
          .some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
      : ifModifiedSince !== undefined &&
        Date.parse(ifModifiedSince) >= Math.floor(lastModified.getTime() / 1000) * 1000;
  if (status === 200 && isNotModified) {
    response.writeHead(304).end();
    return;
  }
  response.writeHead(status, { 'content-type': contentType });
  response.end(body);
}
