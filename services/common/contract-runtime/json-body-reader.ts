import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { ContractError, internalError, invalidRequest, payloadTooLarge } from './contract-error';

/** A request's JSON body, and the text it was parsed from when that text is known. */
export interface ReadJsonBody {
  /** Undefined when the request carries no JSON body (no body, or another media type). */
  value: unknown;
  /**
   * The text JSON.parse read — what a forwarder may pass on (OperationInput.readBodyJson) — or
   * undefined when the body was read by body-parser, which does not hand it out.
   */
  text?: string;
}

/**
 * Reads request bodies as body-parser's JSON reader (express.json) does, on node:http's request.
 * The request nearly every caller sends — `Content-Type: application/json` in UTF-8, no
 * Content-Encoding, a Content-Length within the limit — is read here: its bytes gathered, decoded
 * once and parsed. That was a tenth of the scheduler's HTTP thread through body-parser (type-is,
 * raw-body, iconv-lite; `perf record` on that thread, docs/frontier-performance.md, forty-ninth
 * session), and a forwarder had to decode the bytes a second time for the text it passes on.
 * Every other request — chunked, compressed, another charset, over the limit — goes to
 * body-parser itself, which keeps the rules for those.
 */
export class JsonBodyReader {
  private readonly bodyParser: ReturnType<typeof express.json>;

  constructor(private readonly limitBytes: number) {
    this.bodyParser = express.json({ limit: limitBytes });
  }

  read(request: IncomingMessage, response: ServerResponse): Promise<ReadJsonBody> {
    const length = plainJsonBodyLength(request);
    if (length === null || length > this.limitBytes) {
      return this.readWithBodyParser(request, response);
    }
    return readPlainJsonBody(request);
  }

  private readWithBodyParser(
    request: IncomingMessage,
    response: ServerResponse,
  ): Promise<ReadJsonBody> {
    return new Promise((resolve, reject) => {
      void this.bodyParser(request as express.Request, response as express.Response, (error) =>
        error
          ? reject(toBodyParserError(error))
          : resolve({ value: (request as { body?: unknown }).body }),
      );
    });
  }
}

/**
 * The Content-Length of a request whose body this reader takes itself, or null: the media type
 * exactly application/json with no parameter but charset utf-8, no Content-Encoding but identity,
 * and a length given (a chunked body has none).
 */
function plainJsonBodyLength(request: IncomingMessage): number | null {
  const { headers } = request;
  const contentType = headers['content-type'];
  if (contentType === undefined || !isPlainJsonMediaType(contentType)) return null;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return null;
  if (headers['transfer-encoding'] !== undefined) return null;
  const length = headers['content-length'];
  // Node's parser has checked that it is one decimal number.
  return length === undefined ? null : Number(length);
}

function isPlainJsonMediaType(contentType: string): boolean {
  if (contentType.length === 16) return contentType.toLowerCase() === 'application/json';
  return /^application\/json[ \t]*;[ \t]*charset=(?:utf-8|"utf-8")[ \t]*$/i.test(contentType);
}

/** byte-order mark U+FEFF, which body-parser's decoding drops. */
const BYTE_ORDER_MARK = '\ufeff';

function readPlainJsonBody(request: IncomingMessage): Promise<ReadJsonBody> {
  return new Promise((resolve, reject) => {
    // A client that went away while the request was authenticated: its request is destroyed and
    // has emitted everything it will ('aborted', 'close'), so no listener added now would fire.
    if (request.destroyed) {
      reject(abortedRequest());
      return;
    }
    const chunks: Buffer[] = [];
    let isEnded = false;
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('error', () => reject(abortedRequest()));
    request.once('close', () => {
      if (!isEnded) reject(abortedRequest());
    });
    request.once('end', () => {
      isEnded = true;
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      // Invalid UTF-8 is replaced, as body-parser's decoding replaces it; the text offered on is
      // the text parsed, so the receiver reads the same value.
      let text = bytes.toString('utf8');
      if (text.startsWith(BYTE_ORDER_MARK)) text = text.slice(1);
      try {
        // An empty body reads as {} in body-parser; a primitive, which its strict mode refuses,
        // is refused by every contract body's schema (an object) instead.
        resolve(text.length === 0 ? { value: {} } : { value: JSON.parse(text) as unknown, text });
      } catch (error) {
        reject(invalidRequest(`body: malformed JSON (${(error as Error).message})`));
      }
    });
  });
}

/** A body cut short: the client went away before sending all of it. */
function abortedRequest(): ContractError {
  return invalidRequest('body: the request was aborted');
}

/** JSON syntax errors and oversized bodies become contract errors instead of HTML pages. */
function toBodyParserError(error: unknown): ContractError {
  const parserError = error as { type?: string; status?: number; message?: string };
  if (parserError.type === 'entity.too.large') {
    return payloadTooLarge('request body exceeds the size limit');
  }
  if (parserError.type === 'entity.parse.failed') {
    return invalidRequest(`body: malformed JSON (${parserError.message ?? 'parse error'})`);
  }
  if (typeof parserError.status === 'number' && parserError.status < 500) {
    return invalidRequest(`body: ${parserError.message ?? 'unreadable'}`);
  }
  return internalError('the request body could not be read');
}
