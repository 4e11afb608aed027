/**
 * RFC 9110 §7.6.1: connection-specific headers describe one hop and must not be forwarded by a
 * proxy; neither may any header the `Connection` header names. Node re-frames bodies itself, so
 * `transfer-encoding` and `content-length` framing are left to it where noted by the caller.
 */
const HOP_BY_HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Filters a flat `[name, value, name, value, …]` list (as in `rawHeaders`) down to end-to-end headers. */
export function endToEndRawHeaders(rawHeaders: readonly string[]): string[] {
  const namedByConnection = new Set<string>();
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index].toLowerCase() === 'connection') {
      for (const token of rawHeaders[index + 1].split(',')) {
        namedByConnection.add(token.trim().toLowerCase());
      }
    }
  }
  const kept: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index].toLowerCase();
    if (!HOP_BY_HOP_HEADERS.has(name) && !namedByConnection.has(name)) {
      kept.push(rawHeaders[index], rawHeaders[index + 1]);
    }
  }
  return kept;
}
