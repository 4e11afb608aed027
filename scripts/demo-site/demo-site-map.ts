/**
 * The demo site's pages as data. The HTML, the sitemap and the expected reachable set are all
 * derived from this one table, so "every reachable page crawled once" can be asserted against a
 * set that cannot drift from what the pages really link to.
 *
 * Every host serves the same pages; a link with `hostOffset` n points at the n-th next host (a
 * ring), so the hosts are reachable from one another.
 */

export type LinkRegion = 'header' | 'navigation' | 'main' | 'aside' | 'footer' | 'outside';

export interface DemoLink {
  readonly path: string;
  readonly text: string;
  readonly region: LinkRegion;
  readonly rel?: string;
  readonly hostOffset?: number;
}

export interface DemoPage {
  readonly path: string;
  readonly title: string;
  /** `csr`: the body is built by /static/csr.js from an XHR; `static`: server-rendered. */
  readonly kind: 'static' | 'csr' | 'console_error';
  readonly text: string;
  /** Links in the server-rendered HTML (besides the shared header / navigation / footer). */
  readonly links: readonly DemoLink[];
  /** Links that only exist after the content XHR completed (csr pages). */
  readonly xhrLinks?: readonly DemoLink[];
  /** Listed in sitemap.xml. */
  readonly isInSitemap: boolean;
}

/** The one path prefix robots.txt disallows on every host. */
export const DISALLOWED_PATH_PREFIX = '/private/';

/** On every page: header, navigation and footer. */
export const SHARED_LINKS: readonly DemoLink[] = [
  { path: '/', text: 'Demo home', region: 'header' },
  { path: '/', text: 'Home', region: 'navigation' },
  { path: '/about', text: 'About', region: 'navigation' },
  { path: '/csr', text: 'Live articles', region: 'navigation' },
  { path: '/about', text: 'About this site', region: 'footer' },
  { path: '/private/report', text: 'Internal report', region: 'footer' },
  { path: '/nofollow-only', text: 'Sponsored', region: 'footer', rel: 'nofollow sponsored' },
];

export const DEMO_PAGES: readonly DemoPage[] = [
  {
    path: '/',
    title: 'Demo home',
    kind: 'static',
    text: 'A list of articles on this demo host.',
    links: [
      { path: '/articles/1', text: 'First article', region: 'main' },
      { path: '/articles/2', text: 'Second article', region: 'main' },
      { path: '/articles/3', text: 'Third article', region: 'main' },
      { path: '/', text: 'Next demo host', region: 'aside', hostOffset: 1 },
    ],
    isInSitemap: true,
  },
  {
    path: '/about',
    title: 'About the demo',
    kind: 'static',
    text: 'This site exists to be crawled by tests.',
    links: [{ path: '/', text: 'Back home', region: 'main', rel: 'NoFollow  NoOpener' }],
    isInSitemap: true,
  },
  {
    path: '/csr',
    title: 'Live articles',
    kind: 'csr',
    text: 'Articles delivered by XHR after the page loaded.',
    links: [],
    xhrLinks: [
      { path: '/articles/4', text: 'Fourth article, only linked from XHR content', region: 'main' },
      { path: '/articles/1', text: 'First article again', region: 'main' },
      { path: '/csr', text: 'Live articles on the next host', region: 'main', hostOffset: 1 },
    ],
    isInSitemap: true,
  },
  {
    path: '/articles/1',
    title: 'First article',
    kind: 'static',
    text: 'The first article body.',
    links: [
      // A header inside an article inside main is not a banner: the link belongs to main.
      { path: '/articles/2', text: 'Read the second', region: 'main' },
      { path: '/about', text: 'Outside any landmark', region: 'outside' },
    ],
    isInSitemap: true,
  },
  {
    path: '/articles/2',
    title: 'Second article',
    kind: 'static',
    text: 'The second article body.',
    links: [{ path: '/articles/3', text: 'Read the third', region: 'aside' }],
    isInSitemap: true,
  },
  {
    path: '/articles/3',
    title: 'Third article',
    kind: 'static',
    text: 'The third article body.',
    links: [{ path: '/console-error', text: 'A page with script errors', region: 'main' }],
    isInSitemap: true,
  },
  {
    path: '/articles/4',
    title: 'Fourth article',
    kind: 'static',
    text: 'Only reachable through a link that arrives by XHR.',
    links: [],
    isInSitemap: false,
  },
  {
    path: '/console-error',
    title: 'Console errors',
    kind: 'console_error',
    text: 'This page calls console.error and throws an uncaught exception.',
    links: [],
    isInSitemap: false,
  },
  {
    path: '/private/report',
    title: 'Internal report',
    kind: 'static',
    text: 'Disallowed by robots.txt.',
    links: [{ path: '/private/archive', text: 'Archive', region: 'main' }],
    isInSitemap: false,
  },
  {
    path: '/nofollow-only',
    title: 'Sponsored',
    kind: 'static',
    text: 'Only linked with rel="nofollow".',
    links: [],
    isInSitemap: false,
  },
];

export function findDemoPage(path: string): DemoPage | undefined {
  return DEMO_PAGES.find((page) => page.path === path);
}

/** Links a crawler finds on a rendered page: shared chrome, server-rendered and XHR links. */
export function allLinksOf(page: DemoPage): readonly DemoLink[] {
  return [...SHARED_LINKS, ...page.links, ...(page.xhrLinks ?? [])];
}

function isNoFollow(link: DemoLink): boolean {
  return (link.rel ?? '').toLowerCase().split(/\s+/).includes('nofollow');
}

/** Absolute URL of a link found on host `hostIndex` of `baseUrls`. */
export function resolveDemoLink(
  link: DemoLink,
  hostIndex: number,
  baseUrls: readonly string[],
): string {
  const targetHost = (hostIndex + (link.hostOffset ?? 0)) % baseUrls.length;
  return `${baseUrls[targetHost]}${link.path}`;
}

/**
 * URLs a polite crawler reaches from `seedUrls` by following links: nofollow links are not
 * followed and robots-disallowed paths are not fetched (so their links are never seen). URLs are
 * in normalized form (base URLs have no trailing slash, paths are already canonical).
 */
export function computeReachableUrls(
  baseUrls: readonly string[],
  seedUrls: readonly string[],
): string[] {
  const pageAt = new Map<string, { page: DemoPage; hostIndex: number }>();
  baseUrls.forEach((baseUrl, hostIndex) => {
    for (const page of DEMO_PAGES) pageAt.set(`${baseUrl}${page.path}`, { page, hostIndex });
  });
  const reached = new Set<string>();
  const queue = [...seedUrls];
  while (queue.length > 0) {
    const url = queue.shift() as string;
    const found = pageAt.get(url);
    if (
      reached.has(url) ||
      found === undefined ||
      new URL(url).pathname.startsWith(DISALLOWED_PATH_PREFIX)
    ) {
      continue;
    }
    reached.add(url);
    for (const link of allLinksOf(found.page)) {
      if (!isNoFollow(link)) queue.push(resolveDemoLink(link, found.hostIndex, baseUrls));
    }
  }
  return [...reached].sort();
}
