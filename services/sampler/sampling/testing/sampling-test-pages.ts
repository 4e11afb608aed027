/**
 * Small HTML documents for the detector's unit tests: the shapes real sites take (an empty mount
 * point, a server article, a server shell around a client main, a login form, …).
 */

export const ARTICLE_TEXT = [
  'The harbour bridge reopened to traffic on Monday morning, ending a closure that forced commuters onto ferries for almost two years.',
  'Engineers replaced more than four hundred steel cables and resurfaced the entire deck, and the council said the final bill came in under the revised budget.',
  'Cyclists gain a separated lane on the eastern side, protected by a low concrete barrier, and shop owners near the southern ramp expect passing trade to return.',
];

export function page(
  body: string,
  options: { lang?: string; title?: string; head?: string } = {},
): string {
  return `<!DOCTYPE html><html lang="${options.lang ?? 'en'}"><head><title>${options.title ?? 'Harbour news'}</title>${options.head ?? ''}</head><body>${body}</body></html>`;
}

export const ARTICLE = `<article><h1>Harbour bridge reopens</h1>${ARTICLE_TEXT.map((text) => `<p>${text}</p>`).join('')}</article>`;

export const CHROME = {
  header:
    '<header><a href="/">Harbour Daily</a> <nav><a href="/">Home</a> <a href="/city">City news</a> <a href="/sport">Sport results</a> <a href="/weather">Weather forecast</a> <a href="/about">About the newsroom</a></nav></header>',
  footer:
    '<footer><p>© Harbour Daily. All rights reserved. Independent publisher since 2009. Imprint, privacy policy and terms of use.</p></footer>',
};

/** A client-rendered page: plain is a mount point, rendered has the article. */
export const CSR = {
  plain: page('<div id="root"></div><script src="/static/app.js"></script>'),
  rendered: page(
    `<div id="root"><main class="page">${ARTICLE}</main></div><script src="/static/app.js"></script>`,
  ),
};

export const SSR = {
  plain: page(
    `${CHROME.header}<main>${ARTICLE}</main>${CHROME.footer}<script>window.dataLayer=[];</script>`,
  ),
  rendered: page(
    `${CHROME.header}<main>${ARTICLE}</main>${CHROME.footer}<script>window.dataLayer=[];</script>`,
  ),
};

export const PARTIAL = {
  plain: page(
    `${CHROME.header}<main><div id="article-body"></div></main>${CHROME.footer}<script src="/app.js"></script>`,
  ),
  rendered: page(
    `${CHROME.header}<main><div id="article-body">${ARTICLE}</div></main>${CHROME.footer}<script src="/app.js"></script>`,
  ),
};
