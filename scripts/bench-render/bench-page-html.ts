import { BUILD_CONTENT_SECTION_FUNCTION } from '../demo-site/content-section-script';
import { pageDocument } from '../demo-site/demo-page-html';
import { BenchPage, benchPageUrl, LATE_XHR_DELAY_MS, mainLinkTargets } from './bench-page-set';

export const BENCH_PAGE_SCRIPT_PATH = '/static/bench-page.js';

/**
 * The server-rendered shell of an item page: header, navigation and footer links, an empty main
 * that the script fills, an image (blocked by every contender) and the page's XHR plan as JSON.
 * The stylesheet comes from the demo site (`pageDocument`) and pulls in a web font, also blocked.
 */
export function renderBenchPageHtml(page: BenchPage): string {
  // `<` escaped so the JSON can never close its script element.
  const plan = JSON.stringify(page.xhrPlan).replace(/</g, '\\u003c');
  const body = [
    '<header><a href="/">Bench shop</a></header>',
    '<nav><a href="/">Home</a> <a href="/items/0">All items</a> <a href="/about">About</a></nav>',
    '<main id="app"><p id="loading">Loading…</p></main>',
    '<footer><a href="/about">About us</a> <a href="/private/contact">Contact</a></footer>',
    '<img src="/static/pixel.png" alt="product photo">',
    `<script id="xhr-plan" type="application/json">${plan}</script>`,
    `<script src="${BENCH_PAGE_SCRIPT_PATH}"></script>`,
  ].join('\n');
  return pageDocument(`Item ${page.itemNumber}`, body);
}

/** The content XHR's answer: heading, text and the main links (next items, on other hosts). */
export function benchPageContent(
  page: BenchPage,
  baseUrls: readonly string[],
  pageCount: number,
): unknown {
  return {
    heading: `Item ${page.itemNumber}`,
    text: `Item ${page.itemNumber} was delivered by XHR after the page loaded.`,
    links: mainLinkTargets(page.itemNumber, pageCount).map((target) => ({
      href: benchPageUrl(baseUrls, target),
      text: `Item ${target}`,
    })),
  };
}

/**
 * Runs the page's XHR plan in the browser: fetch() and XMLHttpRequest calls at once (one of them
 * builds `#content`), late ones after the load event. Failing calls are swallowed like a real
 * widget would. Plain ES5-style browser JavaScript kept as text: it runs in Chromium, not Node.
 */
export const BENCH_PAGE_SCRIPT = `(function () {
  var plan = JSON.parse(document.getElementById('xhr-plan').textContent);
  function send(xhr) {
    if (xhr.api === 'fetch') {
      return fetch(xhr.path).then(function (response) { return response.json(); });
    }
    return new Promise(function (resolve, reject) {
      var request = new XMLHttpRequest();
      request.open('GET', xhr.path);
      request.onload = function () { resolve(JSON.parse(request.responseText)); };
      request.onerror = reject;
      request.send();
    });
  }
  ${BUILD_CONTENT_SECTION_FUNCTION}
  function fillContent(data) {
    document.getElementById('app').replaceChildren(buildContentSection(data));
  }
  plan.forEach(function (xhr) {
    if (xhr.isLate) return;
    var answer = send(xhr);
    (xhr.fillsContent ? answer.then(fillContent) : answer).catch(function () {});
  });
  window.addEventListener('load', function () {
    setTimeout(function () {
      plan.forEach(function (xhr) {
        if (xhr.isLate) send(xhr).catch(function () {});
      });
    }, ${LATE_XHR_DELAY_MS});
  });
})();`;
