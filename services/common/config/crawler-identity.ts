/**
 * The product token this crawler announces in its User-Agent and matches robots.txt groups with.
 * The downloader (which fetches and honours robots.txt) and the scheduler (which filters seeds and
 * links with the rule's robots_txt) must select the same group, so both default to this one value.
 */
export const CRAWLER_PRODUCT_TOKEN = 'RenderCrawler';
export const CRAWLER_VERSION = '0.1';
