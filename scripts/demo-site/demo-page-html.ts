import { DemoLink, DemoPage, LinkRegion, resolveDemoLink, SHARED_LINKS } from './demo-site-map';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Same-host links stay relative (as real sites write them); cross-host links are absolute. */
function anchor(link: DemoLink, hostIndex: number, baseUrls: readonly string[]): string {
  const href = link.hostOffset ? resolveDemoLink(link, hostIndex, baseUrls) : link.path;
  const rel = link.rel === undefined ? '' : ` rel="${escapeHtml(link.rel)}"`;
  return `<a href="${escapeHtml(href)}"${rel}>${escapeHtml(link.text)}</a>`;
}

function anchorsIn(
  region: LinkRegion,
  links: readonly DemoLink[],
  hostIndex: number,
  baseUrls: readonly string[],
): string {
  return links
    .filter((link) => link.region === region)
    .map((link) => anchor(link, hostIndex, baseUrls))
    .join(' ');
}

/** The document around a page body: shared head, stylesheet (with a web font) and landmarks. */
export function pageDocument(title: string, body: string, headExtra = ''): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>`,
    `<link rel="stylesheet" href="/static/site.css">${headExtra}</head>`,
    `<body>${body}</body>`,
    '</html>',
  ].join('\n');
}

/**
 * Server-rendered HTML of a demo page. The landmark markup deliberately mixes elements and ARIA
 * roles — `<header>`, `<div role="navigation">`, `<main>`, `<aside>`, `<footer>` — and wraps the
 * main links in `<article><header>` (a header that is *not* a banner), so dom_position is tested
 * against every rule, not only the easy one.
 */
export function renderDemoPage(
  page: DemoPage,
  hostIndex: number,
  baseUrls: readonly string[],
  isClientRendered = false,
): string {
  const links = [...SHARED_LINKS, ...page.links];
  const region = (name: LinkRegion): string => anchorsIn(name, links, hostIndex, baseUrls);
  // On a client-rendered host a static page's article (its main links included) is built by
  // /static/article.js from /api/page: the server sends only the shell, as an app shell does.
  const isArticleRenderedByScript = isClientRendered && page.kind === 'static';
  const mainContent =
    page.kind === 'csr' || isArticleRenderedByScript
      ? '<p id="loading">Loading…</p>'
      : `<article><header>${region('main')}</header><h1>${escapeHtml(page.title)}</h1>` +
        `<p>${escapeHtml(page.text)}</p></article>`;
  const scripts =
    page.kind === 'csr'
      ? '<img src="/static/pixel.png" alt="decorative pixel"><script src="/static/csr.js"></script>'
      : page.kind === 'console_error'
        ? '<script src="/static/console-error.js"></script>'
        : isArticleRenderedByScript
          ? '<script src="/static/article.js"></script>'
          : '';
  const body = [
    `<header>${region('header')}</header>`,
    `<div role="navigation">${region('navigation')}</div>`,
    `<main id="app">${mainContent}</main>`,
    `<aside>${region('aside')}</aside>`,
    `<p class="outside">${region('outside')}</p>`,
    `<footer>${region('footer')}</footer>`,
    scripts,
  ].join('\n');
  return pageDocument(page.title, body);
}

/** Links as the content JSON carries them: resolved for the serving host. */
function contentLinksOf(
  links: readonly DemoLink[],
  hostIndex: number,
  baseUrls: readonly string[],
): Array<{ href: string; text: string; rel: string }> {
  return links.map((link) => ({
    href: link.hostOffset ? resolveDemoLink(link, hostIndex, baseUrls) : link.path,
    text: link.text,
    rel: link.rel ?? '',
  }));
}

/** JSON /api/page returns on a client-rendered host: a static page's article, links resolved. */
export function articleContent(
  page: DemoPage,
  hostIndex: number,
  baseUrls: readonly string[],
): unknown {
  const mainLinks = page.links.filter((link) => link.region === 'main');
  return {
    heading: page.title,
    text: page.text,
    links: contentLinksOf(mainLinks, hostIndex, baseUrls),
  };
}

/** JSON the csr page's content XHR returns; links resolved for the serving host. */
export function csrContent(
  page: DemoPage,
  hostIndex: number,
  baseUrls: readonly string[],
): unknown {
  return {
    heading: page.title,
    text: page.text,
    links: contentLinksOf(page.xhrLinks ?? [], hostIndex, baseUrls),
  };
}
