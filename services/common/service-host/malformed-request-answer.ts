import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser rejects before Express sees them (headers or a URL over 16 KB, a
 * broken request line) are answered by Node with an empty body (431 or 400). This answers them as
 * the contract answers every malformed request — 400 `invalid_request` with the error body — so a
 * client learns what was wrong.
 */
export function answerMalformedRequestsWithErrorBody(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const isTooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const body = JSON.stringify({
      error_code: 'invalid_request',
      message: isTooLarge ? 'the request line and headers exceed 16 KB' : 'malformed HTTP request',
    });
    socket.end(
      [
        'HTTP/1.1 400 Bad Request',
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
