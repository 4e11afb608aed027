/**
 * Global URL normalization: the single definition behind `url_hash`, `domain` and every URL the
 * system stores or compares (CONVENTION.md "哈希规范", CONTRACT.md link_list / final_url).
 *
 * Parsing is delegated to the WHATWG URL parser (the one Chromium uses), so a normalized URL is the
 * URL a browser would actually request. On top of what the parser already does — lowercase scheme
 * and host, IDN → punycode, canonical IPv4/IPv6 literals, default port dropped, dot segments
 * resolved (including `%2e` forms), empty path → `/` — this module:
 *   - drops the fragment (never sent to a server);
 *   - drops an empty query (`/a?` ≡ `/a`: servers cannot tell them apart in practice);
 *   - normalizes percent-encoding: escapes of unreserved characters (ALPHA DIGIT - . _ ~) are decoded
 *     (RFC 3986 §6.2.2.2 says they are equivalent), every other escape gets upper-case hex;
 *   - strips one trailing dot from the host (`example.com.` would otherwise be a second `domain`
 *     and a way around the per-domain rate limit);
 *   - rejects anything but http/https, and URLs carrying credentials (a crawler must never store
 *     or replay `user:password@`).
 * The query keeps its original parameter order and `+` / `=` / `&` bytes: reordering or decoding
 * them changes meaning on some servers.
 */

export type UrlRejectionReason = 'invalid_url' | 'unsupported_scheme' | 'credentials_not_allowed';

export class UrlNormalizationError extends Error {
  constructor(
    readonly reason: UrlRejectionReason,
    readonly input: string,
  ) {
    super(`${reason}: ${JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input)}`);
    this.name = 'UrlNormalizationError';
  }
}

const ACCEPTED_PROTOCOLS = new Set(['http:', 'https:']);
const PERCENT_ESCAPE = /%([0-9a-fA-F]{2})/g;
const UNRESERVED_CHARACTER = /[A-Za-z0-9\-._~]/;

/** Decodes escapes of unreserved characters and upper-cases the hex digits of all others. */
function normalizePercentEncoding(component: string): string {
  // Most paths and queries carry no escape at all: no regular-expression pass for them.
  if (!component.includes('%')) return component;
  return component.replace(PERCENT_ESCAPE, (_escape, hex: string) => {
    const character = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED_CHARACTER.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/**
 * DNS limits (RFC 1035 §2.3.4): at most 253 characters, labels of 1–63. The WHATWG parser accepts
 * longer hosts, but no such name resolves — and the host becomes the `domain` inside storage keys,
 * so a page linking to a 1,000-character host must be refused here, not by the key length check.
 */
function isResolvableHostShape(hostname: string): boolean {
  if (hostname.startsWith('[')) return true; // an IPv6 literal, already canonical
  if (hostname === '' || hostname.length > MAX_HOST_LENGTH) return false;
  // Label by label in place: every link of every report passes here, and a split made an array.
  let labelStart = 0;
  for (;;) {
    const dot = hostname.indexOf('.', labelStart);
    const labelLength = (dot < 0 ? hostname.length : dot) - labelStart;
    if (labelLength === 0 || labelLength > MAX_LABEL_LENGTH) return false;
    if (dot < 0) return true;
    labelStart = dot + 1;
  }
}

/** A normalized URL and its host (the `domain`), from one parse. */
export interface NormalizedUrl {
  url: string;
  /** Lowercase (punycode) hostname without port; an IPv6 literal keeps its brackets. */
  host: string;
}

/**
 * Normalizes `input` (resolved against `baseUrl` when relative) and names its host, parsing it once.
 * Throws UrlNormalizationError when the URL cannot be crawled.
 */
export function normalizeUrlParts(input: string, baseUrl?: string): NormalizedUrl {
  let parsed: URL;
  try {
    parsed = new URL(input, baseUrl);
  } catch {
    throw new UrlNormalizationError('invalid_url', input);
  }
  if (!ACCEPTED_PROTOCOLS.has(parsed.protocol)) {
    throw new UrlNormalizationError('unsupported_scheme', input);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new UrlNormalizationError('credentials_not_allowed', input);
  }
  const parsedHostname = parsed.hostname; // each read of a URL getter cuts a new string
  const hostname = parsedHostname.endsWith('.') ? parsedHostname.slice(0, -1) : parsedHostname;
  if (!isResolvableHostShape(hostname)) {
    throw new UrlNormalizationError('invalid_url', input);
  }
  const port = parsed.port === '' ? '' : `:${parsed.port}`;
  // `search` is '' both for "no query" and for a bare "?", which is exactly the equivalence wanted.
  const path = normalizePercentEncoding(parsed.pathname);
  const query = normalizePercentEncoding(parsed.search);
  return { url: `${parsed.protocol}//${hostname}${port}${path}${query}`, host: hostname };
}

/**
 * Returns the normalized form of `input` (resolved against `baseUrl` when relative).
 * Throws UrlNormalizationError when the URL cannot be crawled.
 */
export function normalizeUrl(input: string, baseUrl?: string): string {
  return normalizeUrlParts(input, baseUrl).url;
}

/** Like normalizeUrl, but answers undefined instead of throwing (for link extraction). */
export function tryNormalizeUrl(input: string, baseUrl?: string): string | undefined {
  try {
    return normalizeUrl(input, baseUrl);
  } catch (error) {
    if (error instanceof UrlNormalizationError) return undefined;
    throw error;
  }
}
