import { hashOfNormalizedUrl, normalizeUrlParts, UrlNormalizationError } from '../../common/url';

/** A URL as the frontier keys it: normalized (CONTRACT.md §十), hashed, and its domain. */
export interface FrontierUrl {
  url: string;
  urlHash: string;
  domain: string;
}

export type FrontierUrlRejection = 'invalid_url' | 'unsupported_scheme';

/**
 * Normalizes `input`, or says why it cannot enter the frontier (a reject_reason value). One parse:
 * every link of every report passes here.
 */
export function parseFrontierUrl(input: string): FrontierUrl | FrontierUrlRejection {
  try {
    const { url, host } = normalizeUrlParts(input);
    return { url, urlHash: hashOfNormalizedUrl(url), domain: host };
  } catch (error) {
    if (!(error instanceof UrlNormalizationError)) throw error;
    // URLs with credentials are refused too; the contract has no closer reason than invalid_url.
    return error.reason === 'unsupported_scheme' ? 'unsupported_scheme' : 'invalid_url';
  }
}

/** A link whose URL the frontier holds already: only its url_hash, nothing to admit. */
export interface KnownLink {
  isKnown: true;
  urlHash: string;
}

/** A link as a UrlListParser answers it: parsed, refused, or known to the frontier already. */
export type PreparedUrl = FrontierUrl | FrontierUrlRejection | KnownLink;

/**
 * Normalizes and hashes a list of link URLs, answering in the same order (parseFrontierUrl each).
 * With `isKnownAnswered`, a URL the frontier is known to hold may come back as a KnownLink (a
 * parser may also leave it parsed: "known" is an answer it can give, not one it must).
 */
export type UrlListParser = (
  urls: readonly string[],
  options?: { isKnownAnswered: boolean },
) => Promise<PreparedUrl[]>;
