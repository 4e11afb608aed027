import { parseDocument } from 'htmlparser2';
import { getElementsByTagName, textContent } from 'domutils';

export interface SitemapContent {
  /** `<url><loc>` entries of a urlset. */
  readonly pageUrls: string[];
  /** `<sitemap><loc>` entries of a sitemap index. */
  readonly sitemapUrls: string[];
}

/**
 * Reads a sitemap (sitemaps.org protocol) in XML mode: page URLs of a `<urlset>`, child sitemaps of
 * a `<sitemapindex>`. Anything that is not a sitemap yields nothing (a site answering its HTML
 * home page for /sitemap.xml is common). At most `maxUrlCount` URLs of each kind are kept.
 */
export function readSitemap(xml: string, maxUrlCount: number): SitemapContent {
  const document = parseDocument(xml, { xmlMode: true });
  const locsUnder = (parentTag: string): string[] => {
    const urls: string[] = [];
    for (const parent of getElementsByTagName(parentTag, document.children, true)) {
      const loc = getElementsByTagName('loc', parent.children, false, 1)[0];
      const text = loc === undefined ? '' : textContent(loc).trim();
      if (/^https?:\/\//i.test(text)) urls.push(text);
      if (urls.length >= maxUrlCount) break;
    }
    return urls;
  };
  const hasRoot = (tag: string) =>
    getElementsByTagName(tag, document.children, false, 1).length > 0;
  return {
    pageUrls: hasRoot('urlset') ? locsUnder('url') : [],
    sitemapUrls: hasRoot('sitemapindex') ? locsUnder('sitemap') : [],
  };
}
