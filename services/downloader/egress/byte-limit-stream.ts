import { Transform } from 'node:stream';
import { EgressError } from './egress-error';

/**
 * A pass-through stream that fails with `content_too_large` once more than `maxBytes` went through.
 * Used on every body that flows from an origin, so one huge response can't exhaust memory or the
 * render budget.
 */
export function createByteLimitStream(maxBytes: number, description: string): Transform {
  let byteCount = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      byteCount += chunk.length;
      if (byteCount > maxBytes) {
        callback(new EgressError('content_too_large', `${description} exceeds ${maxBytes} bytes`));
        return;
      }
      callback(null, chunk);
    },
  });
}
