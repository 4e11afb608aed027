/**
 * The function evaluated inside the page after the waits. It is kept as JavaScript source text,
 * not a TypeScript function handed to page.evaluate: transpilers (tsx/esbuild `keepNames`,
 * coverage instrumentation) inject helpers into function bodies that don't exist in the page.
 *
 * dom_position rule: the nearest landmark ancestor of the link wins —
 *   role=main / <main> → main, role=navigation / <nav> → navigation,
 *   role=complementary / <aside> → aside, role=banner → header, role=contentinfo → footer,
 *   <header> → header and <footer> → footer only when not inside article/aside/main/nav/section
 *   (HTML-AAM: scoped there they are not banner/contentinfo landmarks);
 *   an element with another explicit role is skipped; no landmark → other.
 */
export const PAGE_SNAPSHOT_SCRIPT = String.raw`(function (options) {
  function collapse(text) { return (text || '').replace(/\s+/g, ' ').trim(); }
  var ROLE_POSITIONS = { main: 'main', navigation: 'navigation', complementary: 'aside', banner: 'header', contentinfo: 'footer' };
  var ELEMENT_POSITIONS = { main: 'main', nav: 'navigation', aside: 'aside' };
  var SCOPING = 'article, aside, main, nav, section';
  function positionOf(element) {
    for (var node = element.parentElement; node; node = node.parentElement) {
      var role = collapse(node.getAttribute('role')).toLowerCase().split(' ')[0];
      if (role) {
        if (ROLE_POSITIONS[role]) return ROLE_POSITIONS[role];
        continue;
      }
      var tag = node.localName;
      if (ELEMENT_POSITIONS[tag]) return ELEMENT_POSITIONS[tag];
      if ((tag === 'header' || tag === 'footer') && !(node.parentElement && node.parentElement.closest(SCOPING))) {
        return tag;
      }
    }
    return 'other';
  }
  function textOf(anchor) {
    var image = anchor.querySelector('img[alt]');
    return collapse(anchor.textContent) || collapse(anchor.getAttribute('aria-label')) ||
      collapse(anchor.getAttribute('title')) || collapse(image ? image.getAttribute('alt') : '');
  }
  var links = [];
  var anchors = document.querySelectorAll('a[href], area[href]');
  for (var index = 0; index < anchors.length && links.length < options.maxLinkCount; index++) {
    var anchor = anchors[index];
    // A link wrapping a whole article would carry the article as its text: keep the start only.
    links.push({ href: anchor.href, rel: collapse(anchor.getAttribute('rel')).toLowerCase(), position: positionOf(anchor), text: textOf(anchor).slice(0, options.maxAnchorTextLength) });
  }
  var contentRoot = options.waitSelector ? document.querySelector(options.waitSelector) : document.body;
  // innerText forces layout: measure the body once when it is also the content root.
  var bodyTextLength = collapse(document.body ? document.body.innerText : '').length;
  var contentTextLength = contentRoot === document.body ? bodyTextLength : collapse(contentRoot ? contentRoot.innerText : '').length;
  // The page's main text, for an API endpoint hint: the wait_selector container, else <main>, else the body.
  var mainText = null;
  if (options.isMainTextWanted) {
    var mainRoot = (options.waitSelector && document.querySelector(options.waitSelector)) || document.querySelector('main') || document.body;
    mainText = collapse(mainRoot ? mainRoot.innerText : '').slice(0, options.maxMainTextLength);
  }
  var doctype = document.doctype;
  var html = (doctype ? '<!DOCTYPE ' + doctype.name +
      (doctype.publicId ? ' PUBLIC "' + doctype.publicId + '"' : '') +
      (doctype.systemId ? (doctype.publicId ? ' "' : ' SYSTEM "') + doctype.systemId + '"' : '') + '>' : '') +
    (document.documentElement ? document.documentElement.outerHTML : '');
  var isTooLarge = html.length > options.maxHtmlCharacterCount;
  return {
    html: isTooLarge ? null : html,
    htmlCharacterCount: html.length,
    title: document.title,
    lang: document.documentElement ? document.documentElement.getAttribute('lang') : null,
    contentTextLength: contentTextLength,
    bodyTextLength: bodyTextLength,
    mainText: mainText,
    links: links
  };
})`;
