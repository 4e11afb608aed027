import { normalizeUrl } from './normalize-url';

/**
 * The `domain` of a URL: the lowercase (punycode) hostname of its normalized form, without port.
 *
 * An IPv6 literal keeps its brackets (`[::1]`), exactly as it appears in the URL: the value stays
 * unambiguous next to a port, equals what `new URL(...).hostname` returns everywhere, and two
 * spellings of one address (`[0:0::1]`, `[::1]`) already collapse during normalization.
 * Subdomains are distinct domains (`www.example.com` ≠ `example.com`): robots.txt and rate limits
 * are per host.
 */
export function domainOfUrl(url: string): string {
  return new URL(normalizeUrl(url)).hostname;
}
