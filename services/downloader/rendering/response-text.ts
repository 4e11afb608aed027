/**
 * Decodes a response body as text using the charset of its Content-Type (UTF-8 when absent or
 * unknown to the platform's TextDecoder). Only for bodies we keep as text: robots.txt, sitemaps.
 */
export function decodeResponseText(body: Buffer, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
