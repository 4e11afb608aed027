import type { IncomingMessage } from 'node:http';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { createByteLimitStream } from './byte-limit-stream';
import { EgressError } from './egress-error';

/** The encodings we advertise in Accept-Encoding, and therefore must be able to decode. */
export const ACCEPTED_CONTENT_ENCODINGS = 'gzip, deflate, br';

function decoderFor(contentEncoding: string | undefined): Transform | undefined {
  switch ((contentEncoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined; // identity, or an encoding we never asked for: keep the bytes as sent
  }
}

/**
 * Reads a whole response body, decompressed, failing with `content_too_large` past `maxBytes`.
 * The limit applies after decompression, so a small gzip bomb can't expand into memory.
 */
export async function readResponseBody(
  response: IncomingMessage,
  maxBytes: number,
  description: string,
): Promise<Buffer> {
  const declaredLength = Number(response.headers['content-length'] ?? 0);
  if (declaredLength > maxBytes && decoderFor(response.headers['content-encoding']) === undefined) {
    response.destroy();
    throw new EgressError('content_too_large', `${description} declares ${declaredLength} bytes`);
  }
  const chunks: Buffer[] = [];
  const decoder = decoderFor(response.headers['content-encoding']);
  const collect = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) chunks.push(chunk);
  };
  const limit = createByteLimitStream(maxBytes, description);
  if (decoder === undefined) await pipeline(response, limit, collect);
  else await pipeline(response, decoder, limit, collect);
  return Buffer.concat(chunks);
}
