import type { ServerResponse } from 'node:http';
import type { ErrorBodyWire } from './contract-error';

/**
 * Writes `value` as the JSON answer, with the headers Express's `res.json` wrote before the
 * contract was served on node:http directly: a JSON content type in UTF-8 and its length. No ETag:
 * contract answers are never cached (create-service-request-listener.ts).
 */
export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  // 204 and 304 carry no body, nor its length; `undefined` has no JSON text (Express answered it
  // with an empty body).
  if (status === 204 || status === 304) {
    response.writeHead(status);
    response.end();
    return;
  }
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) {
    response.writeHead(status, { 'Content-Length': 0 });
    response.end();
    return;
  }
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Writes the contract error body; 429 answers also carry Retry-After. */
export function sendErrorBody(response: ServerResponse, status: number, body: ErrorBodyWire): void {
  if (body.retry_after_seconds !== undefined) {
    response.setHeader('Retry-After', String(body.retry_after_seconds));
  }
  sendJson(response, status, body);
}
