export { normalizeUrl, tryNormalizeUrl, UrlNormalizationError } from './normalize-url';
export type { UrlRejectionReason } from './normalize-url';
export { urlHash, contentHash } from './url-hash';
export { domainOfUrl } from './url-domain';
