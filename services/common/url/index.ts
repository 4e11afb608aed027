export {
  normalizeUrl,
  normalizeUrlParts,
  tryNormalizeUrl,
  UrlNormalizationError,
} from './normalize-url';
export type { NormalizedUrl, UrlRejectionReason } from './normalize-url';
export { urlHash, contentHash, hashOfNormalizedUrl } from './url-hash';
export { domainOfUrl } from './url-domain';
