import { createHash } from 'node:crypto';
import {
  normalizeUrl,
  normalizeUrlParts,
  tryNormalizeUrl,
  UrlNormalizationError,
} from './normalize-url';
import { contentHash, hashOfNormalizedUrl, urlHash } from './url-hash';
import { domainOfUrl } from './url-domain';
import vectors from './url-normalization-vectors.json';

// The spec computation written out independently of url-hash.ts: SHA-256, first 16 bytes, hex.
function specHash(text: string): string {
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex').slice(0, 32);
}

describe('normalizeUrl (url-normalization-vectors.json)', () => {
  test.each(vectors.normalized)('$rule: $input', ({ input, normalized, url_hash, domain }) => {
    expect(normalizeUrl(input)).toBe(normalized);
    expect(urlHash(input)).toBe(url_hash);
    expect(specHash(normalized)).toBe(url_hash);
    expect(domainOfUrl(input)).toBe(domain);
    // The one-parse form the frontier uses agrees with the three separate calls.
    const parts = normalizeUrlParts(input);
    expect(parts).toEqual({ url: normalized, host: domain });
    expect(hashOfNormalizedUrl(parts.url)).toBe(url_hash);
  });

  test.each(vectors.resolved)(
    '$rule: $input against $base',
    ({ input, base, normalized, url_hash }) => {
      expect(normalizeUrl(input, base)).toBe(normalized);
      expect(specHash(normalized)).toBe(url_hash);
    },
  );

  test.each(vectors.rejected)('rejects $input as $reason', ({ input, reason }) => {
    expect(() => normalizeUrl(input)).toThrow(UrlNormalizationError);
    try {
      normalizeUrl(input);
    } catch (error) {
      expect((error as UrlNormalizationError).reason).toBe(reason);
    }
    expect(tryNormalizeUrl(input)).toBeUndefined();
  });

  test('normalization is idempotent on every vector', () => {
    for (const { normalized } of [...vectors.normalized, ...vectors.resolved]) {
      expect(normalizeUrl(normalized)).toBe(normalized);
    }
  });

  test('accepts a host at the DNS limits: 253 characters, labels of 63', () => {
    const host = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(61)].join('.');
    expect(host).toHaveLength(253);
    expect(domainOfUrl(`http://${host}/x`)).toBe(host);
    expect(domainOfUrl(`http://${host}./x`)).toBe(host);
  });

  test.each([
    ['a label of 64', `http://${'a'.repeat(64)}.example/x`],
    ['an empty label', 'http://a..example/x'],
    ['a last label of 64', `http://example.${'a'.repeat(64)}/x`],
    [
      'a host of 254',
      `http://${['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(62)].join('.')}/x`,
    ],
  ])('refuses a host past the DNS limits: %s', (_case, input) => {
    expect(tryNormalizeUrl(input)).toBeUndefined();
  });

  test('every hash is 32 lowercase hex characters', () => {
    for (const { url_hash } of vectors.normalized) expect(url_hash).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('contentHash', () => {
  test.each(vectors.content_hash)(
    'hashes the UTF-8 bytes of $content_utf8',
    ({ content_utf8, content_hash }) => {
      expect(contentHash(content_utf8)).toBe(content_hash);
      expect(contentHash(Buffer.from(content_utf8, 'utf8'))).toBe(content_hash);
      expect(specHash(content_utf8)).toBe(content_hash);
    },
  );
});
