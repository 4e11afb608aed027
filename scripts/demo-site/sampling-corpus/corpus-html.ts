import { escapeHtml } from '../demo-page-html';
import {
  CHROME_TEXT,
  CORPUS_ARTICLES,
  type CorpusArticle,
  type CorpusLanguage,
} from './corpus-texts';

/** What one page of a corpus site says, whoever renders it (server or browser). */
export interface PageData {
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly links: ReadonlyArray<{ readonly href: string; readonly text: string }>;
}

export interface SiteContent {
  readonly siteName: string;
  readonly language: CorpusLanguage;
  readonly articles: readonly CorpusArticle[];
  /** Paragraphs per article page (length variety between sites). */
  readonly paragraphLimit: number;
}

/** Selects `count` articles of the language, starting at `offset` (wrapping). */
export function siteContent(
  siteName: string,
  language: CorpusLanguage,
  options: { offset?: number; count?: number; paragraphLimit?: number } = {},
): SiteContent {
  const all = CORPUS_ARTICLES[language];
  const count = Math.min(options.count ?? all.length, all.length);
  const offset = options.offset ?? 0;
  const articles = Array.from(
    { length: count },
    (_unused, index) => all[(offset + index) % all.length],
  );
  return { siteName, language, articles, paragraphLimit: options.paragraphLimit ?? 99 };
}

export function articlePath(article: CorpusArticle): string {
  return `/articles/${article.slug}`;
}

/** Every page path of a content site: the home page and one page per article. */
export function sitePaths(content: SiteContent): string[] {
  return ['/', ...content.articles.map(articlePath)];
}

/** The page at `path`, or undefined (404). The home page lists the articles with excerpts. */
export function pageDataAt(content: SiteContent, path: string): PageData | undefined {
  if (path === '/' || path === '/index.html') {
    return {
      title: content.siteName,
      paragraphs: content.articles.map((article) => `${article.title}. ${article.paragraphs[0]}`),
      links: content.articles.map((article) => ({
        href: articlePath(article),
        text: article.title,
      })),
    };
  }
  const article = content.articles.find((candidate) => articlePath(candidate) === path);
  if (article === undefined) return undefined;
  const others = content.articles.filter((candidate) => candidate !== article).slice(0, 3);
  return {
    title: article.title,
    paragraphs: article.paragraphs.slice(0, content.paragraphLimit),
    links: others.map((other) => ({ href: articlePath(other), text: other.title })),
  };
}

/** Server-rendered page body markup of PageData (the same shape the browser scripts build). */
export function articleMarkup(data: PageData, className = 'post'): string {
  const links = data.links
    .map((link) => `<li><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></li>`)
    .join('');
  return (
    `<article class="${className}"><h1>${escapeHtml(data.title)}</h1>` +
    data.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('') +
    (links === '' ? '' : `<ul class="related">${links}</ul>`) +
    '</article>'
  );
}

/** Server-rendered header, navigation and footer of a site. */
export function serverChrome(content: SiteContent): {
  header: string;
  nav: string;
  footer: string;
} {
  const words = CHROME_TEXT[content.language];
  const navLinks = [
    ['/', words.home],
    ...content.articles.slice(0, 3).map((article) => [articlePath(article), article.title]),
    ['/about', words.about],
    ['/contact', words.contact],
  ];
  return {
    header: `<header class="site-header"><a class="brand" href="/">${escapeHtml(content.siteName)}</a> <form class="search" action="/search"><input name="q" placeholder="${escapeHtml(words.search)}"></form></header>`,
    nav: `<nav class="site-nav"><ul>${navLinks.map(([href, text]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a></li>`).join('')}</ul></nav>`,
    footer: `<footer class="site-footer"><p>© ${escapeHtml(content.siteName)}. ${escapeHtml(words.footer)}</p><p><a href="/about">${escapeHtml(words.about)}</a> · <a href="/contact">${escapeHtml(words.contact)}</a> · <a href="/archive">${escapeHtml(words.archive)}</a></p></footer>`,
  };
}

export function documentHtml(options: {
  readonly language: string | null;
  readonly title: string;
  readonly head?: string;
  readonly body: string;
}): string {
  const lang = options.language === null ? '' : ` lang="${options.language}"`;
  return [
    '<!DOCTYPE html>',
    `<html${lang}>`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(options.title)}</title>${options.head ?? ''}</head>`,
    `<body>${options.body}</body>`,
    '</html>',
  ].join('\n');
}

/** JSON embedded in an HTML `<script>`: `</` can't end the element early. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/<\//g, '<\\/').replace(/<!--/g, '<\\!--');
}

/**
 * Browser JavaScript (ES5, kept as text: it runs in Chromium) that turns PageData into DOM, in two
 * markup styles so that csr sites differ: `article` (semantic) and `cards` (div soup with
 * classes, as many app frameworks emit).
 */
export const RENDER_PAGE_FUNCTION = `function renderPage(container, data, style) {
    var root = document.createElement(style === 'cards' ? 'div' : 'article');
    root.className = style === 'cards' ? 'content-card' : 'post';
    var heading = document.createElement(style === 'cards' ? 'div' : 'h1');
    heading.className = 'title';
    heading.textContent = data.title;
    root.appendChild(heading);
    data.paragraphs.forEach(function (text) {
      var paragraph = document.createElement(style === 'cards' ? 'div' : 'p');
      paragraph.className = 'text';
      paragraph.textContent = text;
      root.appendChild(paragraph);
    });
    if (data.links.length > 0) {
      var list = document.createElement(style === 'cards' ? 'div' : 'ul');
      list.className = 'related';
      data.links.forEach(function (link) {
        var item = document.createElement(style === 'cards' ? 'div' : 'li');
        var anchor = document.createElement('a');
        anchor.href = link.href;
        anchor.textContent = link.text;
        item.appendChild(anchor);
        list.appendChild(item);
      });
      root.appendChild(list);
    }
    container.replaceChildren(root);
  }`;
