/**
 * Static files of the demo site. The stylesheet pulls in a web font and the csr page an image: a
 * renderer must block both (the access log proves they were never requested). The scripts are
 * plain ES5-style browser JavaScript kept as text, since they run in Chromium, not in Node.
 */

import { BUILD_CONTENT_SECTION_FUNCTION } from './content-section-script';

export interface StaticAsset {
  readonly contentType: string;
  readonly body: string | Buffer;
}

export interface ScriptTimings {
  /** Delay before the "late" XHR starts, counted from the load event. */
  readonly lateXhrDelayMs: number;
}

const SITE_CSS = `@font-face { font-family: DemoFont; src: url(/static/demo-font.woff2) format("woff2"); }
body { font-family: DemoFont, sans-serif; margin: 2em; }
header, footer, aside, [role=navigation] { color: #555; }`;

// Builds #content only once /api/articles answered: a renderer must wait for it (wait_selector).
// Three XHRs fail on purpose (500, 429, 403), one XHR starts 200 ms after load (late), one uses
// XMLHttpRequest rather than fetch so both count as xhr.
function csrScript({ lateXhrDelayMs }: ScriptTimings): string {
  return `(function () {
  ${BUILD_CONTENT_SECTION_FUNCTION}
  var app = document.getElementById('app');
  fetch('/api/articles').then(function (response) { return response.json(); }).then(function (data) {
    app.replaceChildren(buildContentSection(data));
  });
  [500, 429, 403].forEach(function (status) {
    fetch('/api/fail?status=' + status).catch(function () {});
  });
  window.addEventListener('load', function () {
    setTimeout(function () {
      var request = new XMLHttpRequest();
      request.open('GET', '/api/late');
      request.send();
    }, ${lateXhrDelayMs});
  });
})();`;
}

// A client-rendered host's article: fetched from /api/page and built with DOM calls, inside an
// <article> in main (so its links keep dom_position main).
const ARTICLE_SCRIPT = `(function () {
  var app = document.getElementById('app');
  fetch('/api/page?path=' + encodeURIComponent(location.pathname))
    .then(function (response) { return response.json(); })
    .then(function (data) {
      var article = document.createElement('article');
      var header = document.createElement('header');
      data.links.forEach(function (link) {
        var anchor = document.createElement('a');
        anchor.href = link.href;
        anchor.textContent = link.text;
        if (link.rel) anchor.rel = link.rel;
        header.appendChild(anchor);
        header.appendChild(document.createTextNode(' '));
      });
      var heading = document.createElement('h1');
      heading.textContent = data.heading;
      var text = document.createElement('p');
      text.textContent = data.text;
      article.append(header, heading, text);
      app.replaceChildren(article);
    });
})();`;

const CONSOLE_ERROR_SCRIPT = `console.error('demo console error: widget failed to start');
setTimeout(function () { throw new Error('demo uncaught exception'); }, 0);`;

// 1×1 transparent PNG.
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export function staticAssets(timings: ScriptTimings): ReadonlyMap<string, StaticAsset> {
  return new Map<string, StaticAsset>([
    ['/static/site.css', { contentType: 'text/css; charset=utf-8', body: SITE_CSS }],
    ['/static/csr.js', { contentType: 'text/javascript; charset=utf-8', body: csrScript(timings) }],
    ['/static/article.js', { contentType: 'text/javascript; charset=utf-8', body: ARTICLE_SCRIPT }],
    [
      '/static/console-error.js',
      { contentType: 'text/javascript; charset=utf-8', body: CONSOLE_ERROR_SCRIPT },
    ],
    ['/static/pixel.png', { contentType: 'image/png', body: PIXEL_PNG }],
    // Not a real font: it must never be fetched, so its bytes don't matter.
    ['/static/demo-font.woff2', { contentType: 'font/woff2', body: Buffer.from('wOF2-demo') }],
  ]);
}
