import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from '../demo-page-html';
import { sendJson } from '../http-answers';
import {
  articleMarkup,
  documentHtml,
  pageDataAt,
  RENDER_PAGE_FUNCTION,
  scriptJson,
  serverChrome,
  sitePaths,
  type PageData,
  type SiteContent,
} from './corpus-html';
import { CHROME_TEXT } from './corpus-texts';

/**
 * The kinds of site the sampling corpus serves. Each corpus domain (corpus-table.ts) is one kind
 * with its options and its own content; this file turns that into HTTP answers.
 */

/** Things server-rendered pages carry besides their content. */
export type ServerExtra =
  /** An inline script showing the time in the header (changes no content). */
  | 'inline_clock'
  /** An analytics snippet (no visible effect). */
  | 'analytics'
  /** The page's data again as a `__NEXT_DATA__` payload, re-rendered identically by a script. */
  | 'hydration_payload'
  /** A login box (with a password field) in the header of a content site. */
  | 'login_box'
  /** Two reader comments loaded by a script under the article. */
  | 'comments_widget'
  /** A cookie consent banner injected by a script. */
  | 'consent_banner';

/** Where a client-rendered page gets its content from. */
export type ClientSource =
  | 'xhr'
  | 'fetch'
  | 'inline_json'
  | 'next_data'
  | 'history_router'
  | 'html_fragment'
  | 'custom_element';

/** What the server sends around the client-filled main content. */
export type ClientShell =
  /** Nothing visible: a mount point only. */
  | 'bare'
  /** Header, navigation and footer with their text. */
  | 'server_chrome'
  /** Header, navigation, a long sidebar and footer. */
  | 'server_sidebar'
  /** Server chrome plus the page heading and the first paragraph in main. */
  | 'server_intro';

export type SiteKind =
  | {
      readonly kind: 'server';
      readonly layout: 'article' | 'docs';
      readonly extras?: readonly ServerExtra[];
    }
  | {
      readonly kind: 'client';
      readonly source: ClientSource;
      readonly shell: ClientShell;
      readonly markup: 'article' | 'cards';
      /** id of the mount point. */
      readonly mountId: string;
      /** What the mount point shows before the script ran. */
      readonly placeholder?: string;
      /** Content appears this long after the script starts (setTimeout). */
      readonly delayMs?: number;
      readonly noscriptNotice?: string;
    }
  | { readonly kind: 'login'; readonly style: 'redirect' | 'in_place' | 'client' }
  | { readonly kind: 'challenge'; readonly status: 200 | 403 }
  | { readonly kind: 'server_error' }
  | { readonly kind: 'empty'; readonly isScripted: boolean }
  /** Accepts connections and never answers. */
  | { readonly kind: 'hang' }
  /** Nothing listens on the address. */
  | { readonly kind: 'closed' };

export type RobotsVariant =
  | { readonly kind: 'none' }
  | { readonly kind: 'allow'; readonly crawlDelaySeconds?: number }
  | { readonly kind: 'disallow_all' }
  | { readonly kind: 'disallow_crawler'; readonly productToken: string };

export interface SiteDefinition {
  readonly content: SiteContent;
  readonly site: SiteKind;
  readonly robots: RobotsVariant;
  readonly hasSitemap: boolean;
}

const HTML = 'text/html; charset=utf-8';

function send(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': contentType,
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(body);
}

function robotsTxt(definition: SiteDefinition, baseUrl: string): string | null {
  const sitemapLine = definition.hasSitemap ? [`Sitemap: ${baseUrl}/sitemap.xml`] : [];
  switch (definition.robots.kind) {
    case 'none':
      return null;
    case 'allow':
      return [
        'User-agent: *',
        'Disallow: /admin/',
        ...(definition.robots.crawlDelaySeconds === undefined
          ? []
          : [`Crawl-delay: ${definition.robots.crawlDelaySeconds}`]),
        '',
        ...sitemapLine,
        '',
      ].join('\n');
    case 'disallow_all':
      return ['User-agent: *', 'Disallow: /', ''].join('\n');
    case 'disallow_crawler':
      return [
        `User-agent: ${definition.robots.productToken}`,
        'Disallow: /',
        '',
        'User-agent: *',
        'Allow: /',
        '',
        ...sitemapLine,
        '',
      ].join('\n');
  }
}

function sitemapXml(definition: SiteDefinition, baseUrl: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...sitePaths(definition.content).map(
      (path) => `  <url><loc>${baseUrl}${path}</loc><changefreq>weekly</changefreq></url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');
}

// ---- server-rendered sites ----

const CLOCK_SCRIPT = `<script>(function(){var el=document.getElementById('clock');function tick(){el.setAttribute('data-time', new Date().toISOString());}tick();setInterval(tick,1000);})();</script>`;
const ANALYTICS_SCRIPT = `<script>window.dataLayer=window.dataLayer||[];function track(){dataLayer.push(arguments);}track('event','page_view',{page:location.pathname});</script>`;

function consentBannerScript(language: SiteContent['language']): string {
  const text =
    language === 'de'
      ? 'Wir verwenden Cookies, um Inhalte zu personalisieren, Funktionen für soziale Medien anzubieten und die Zugriffe auf unsere Website zu analysieren. Sie können Ihre Auswahl jederzeit in den Einstellungen ändern.'
      : 'We use cookies to personalise content, to provide social media features and to analyse our traffic. You can change your choice at any time in the settings.';
  return `<script>setTimeout(function(){var b=document.createElement('div');b.id='cookie-consent';b.className='consent-banner';var p=document.createElement('p');p.textContent=${JSON.stringify(text)};b.appendChild(p);document.body.appendChild(b);},100);</script>`;
}

const COMMENTS_SCRIPT = `<script>fetch('/api/comments').then(function(r){return r.json();}).then(function(list){var s=document.createElement('section');s.className='comments';list.forEach(function(c){var p=document.createElement('p');p.textContent=c;s.appendChild(p);});document.querySelector('main').appendChild(s);});</script>`;

function serverPage(
  definition: SiteDefinition,
  site: Extract<SiteKind, { kind: 'server' }>,
  path: string,
  data: PageData,
): string {
  const { content } = definition;
  const chrome = serverChrome(content);
  const extras = new Set(site.extras ?? []);
  const loginBox = extras.has('login_box')
    ? `<form class="login-box" method="post" action="/session"><label>Usuario <input name="user"></label> <label>Contraseña <input type="password" name="password"></label> <button>Entrar</button></form>`
    : '';
  const header = chrome.header.replace(
    '</header>',
    `${extras.has('inline_clock') ? '<span id="clock"></span>' : ''}${loginBox}</header>`,
  );
  let main: string;
  if (site.layout === 'docs') {
    const sidebar = `<aside class="docs-sidebar"><ul>${sitePaths(content)
      .map(
        (candidate) =>
          `<li><a href="${candidate}">${escapeHtml(pageDataAt(content, candidate)?.title ?? candidate)}</a></li>`,
      )
      .join('')}</ul></aside>`;
    const code = `<pre><code>const cache = createCache({ maxEntries: 1000, ttlSeconds: 60 });\ncache.purge('/docs/');</code></pre>`;
    main = `${sidebar}<main class="docs-content">${articleMarkup(data, 'doc')}${path === '/' ? '' : code}</main>`;
  } else {
    main = `<main id="content">${articleMarkup(data)}</main>`;
  }
  const scripts = [
    extras.has('inline_clock') ? CLOCK_SCRIPT : '',
    extras.has('analytics') ? ANALYTICS_SCRIPT : '',
    extras.has('consent_banner') ? consentBannerScript(content.language) : '',
    extras.has('comments_widget') && path !== '/' ? COMMENTS_SCRIPT : '',
    extras.has('hydration_payload')
      ? `<script id="__NEXT_DATA__" type="application/json">${scriptJson({ props: { pageProps: data }, page: path })}</script>` +
        `<script>(function(){${RENDER_PAGE_FUNCTION}var state=JSON.parse(document.getElementById('__NEXT_DATA__').textContent);renderPage(document.getElementById('content'),state.props.pageProps,'article');})();</script>`
      : '',
  ].join('');
  return documentHtml({
    language: content.language,
    title: data.title,
    body: `${header}${chrome.nav}${main}${chrome.footer}${scripts}`,
  });
}

// ---- client-rendered sites ----

function clientScript(site: Extract<SiteKind, { kind: 'client' }>): string {
  const render = `${RENDER_PAGE_FUNCTION}
  var mount = document.getElementById(${JSON.stringify(site.mountId)});
  function show(data) { renderPage(mount, data, ${JSON.stringify(site.markup)}); }`;
  const path = 'location.pathname';
  let load: string;
  switch (site.source) {
    case 'xhr':
      load = `var request = new XMLHttpRequest(); request.open('GET', '/api/page?path=' + encodeURIComponent(${path})); request.onload = function () { show(JSON.parse(request.responseText)); }; request.send();`;
      break;
    case 'fetch':
      load = `fetch('/data' + (${path} === '/' ? '/index' : ${path}) + '.json').then(function (r) { return r.json(); }).then(show);`;
      break;
    case 'inline_json':
      load = `show(JSON.parse(document.getElementById('page-state').textContent));`;
      break;
    case 'next_data':
      load = `show(JSON.parse(document.getElementById('__NEXT_DATA__').textContent).props.pageProps);`;
      break;
    case 'history_router':
      load = `function route() { var data = window.ROUTES[location.pathname] || window.ROUTES['/']; show(data); document.title = data.title; }
  document.addEventListener('click', function (event) {
    var anchor = event.target.closest && event.target.closest('a');
    if (anchor && anchor.origin === location.origin) { event.preventDefault(); history.pushState(null, '', anchor.pathname); route(); }
  });
  window.addEventListener('popstate', route);
  route();`;
      break;
    case 'html_fragment':
      load = `fetch('/fragments?path=' + encodeURIComponent(${path})).then(function (r) { return r.text(); }).then(function (html) { mount.innerHTML = html; });`;
      break;
    case 'custom_element':
      load = `customElements.define('page-viewer', class extends HTMLElement {
    connectedCallback() { var self = this; fetch('/api/page?path=' + encodeURIComponent(location.pathname)).then(function (r) { return r.json(); }).then(function (data) { renderPage(self, data, ${JSON.stringify(site.markup)}); }); }
  });`;
      break;
  }
  const body =
    site.delayMs === undefined ? load : `setTimeout(function () { ${load} }, ${site.delayMs});`;
  return `(function () {\n  ${render}\n  ${body}\n})();`;
}

function clientPage(
  definition: SiteDefinition,
  site: Extract<SiteKind, { kind: 'client' }>,
  path: string,
  data: PageData,
): string {
  const { content } = definition;
  const chrome = serverChrome(content);
  const placeholder = site.placeholder ?? '';
  const mount =
    site.source === 'custom_element'
      ? `<page-viewer id="${site.mountId}">${placeholder}</page-viewer>`
      : `<div id="${site.mountId}">${placeholder}</div>`;
  const noscript =
    site.noscriptNotice === undefined
      ? ''
      : `<noscript>${escapeHtml(site.noscriptNotice)}</noscript>`;
  let body: string;
  switch (site.shell) {
    case 'bare':
      body = `${noscript}${mount}`;
      break;
    case 'server_chrome':
      body = `${chrome.header}${chrome.nav}<main>${mount}</main>${chrome.footer}${noscript}`;
      break;
    case 'server_sidebar': {
      const words = CHROME_TEXT[content.language];
      const sidebar = `<aside class="portal-sidebar"><h2>${escapeHtml(words.archive)}</h2>${content.articles
        .map(
          (article) =>
            `<p><a href="/articles/${article.slug}">${escapeHtml(article.title)}</a> ${escapeHtml(article.paragraphs[0].slice(0, 90))}…</p>`,
        )
        .join('')}</aside>`;
      body = `${chrome.header}${chrome.nav}<div class="layout">${sidebar}<main>${mount}</main></div>${chrome.footer}${noscript}`;
      break;
    }
    case 'server_intro':
      body = `${chrome.header}${chrome.nav}<main><h1 class="page-title">${escapeHtml(data.title)}</h1><p class="lead">${escapeHtml(data.paragraphs[0] ?? '')}</p>${mount}</main>${chrome.footer}${noscript}`;
      break;
  }
  const state =
    site.source === 'inline_json'
      ? `<script type="application/json" id="page-state">${scriptJson(data)}</script>`
      : site.source === 'next_data'
        ? `<script id="__NEXT_DATA__" type="application/json">${scriptJson({ props: { pageProps: data }, page: path, buildId: 'b1' })}</script>`
        : '';
  const bundle =
    site.source === 'history_router'
      ? '<script src="/static/app.js"></script>'
      : `<script src="/static/client.js"></script>`;
  return documentHtml({
    language: content.language,
    title: site.shell === 'bare' ? content.siteName : data.title,
    body: `${body}${state}${bundle}`,
  });
}

/** For the server_intro shell the client loads what the server did not show. */
function clientData(site: Extract<SiteKind, { kind: 'client' }>, data: PageData): PageData {
  return site.shell === 'server_intro'
    ? { ...data, title: data.title, paragraphs: data.paragraphs.slice(1) }
    : data;
}

// ---- the other kinds ----

function loginPage(definition: SiteDefinition, nextPath: string): string {
  const isGerman = definition.content.language === 'de';
  const heading = isGerman ? 'Anmelden' : 'Sign in';
  const lead = isGerman
    ? 'Nur für Mitglieder. Bitte melden Sie sich an, um weiterzulesen.'
    : 'Members only. Please sign in to continue reading.';
  return documentHtml({
    language: definition.content.language,
    title: `${heading} – ${definition.content.siteName}`,
    body: `<main class="auth"><h1>${heading}</h1><p>${lead}</p><form method="post" action="/session?next=${encodeURIComponent(nextPath)}"><label>E-mail <input type="email" name="email"></label><label>${isGerman ? 'Passwort' : 'Password'} <input type="password" name="password"></label><button type="submit">${heading}</button></form><p><a href="/reset">${isGerman ? 'Passwort vergessen?' : 'Forgot your password?'}</a></p></main>`,
  });
}

const CLIENT_LOGIN_SCRIPT = `(function(){var m=document.getElementById('app');var f=document.createElement('form');f.className='login';var h=document.createElement('h1');h.textContent='Sign in to your workspace';m.appendChild(h);['email','password'].forEach(function(t){var l=document.createElement('label');l.textContent=t==='email'?'Work email':'Password';var i=document.createElement('input');i.type=t;i.name=t;l.appendChild(i);f.appendChild(l);});var b=document.createElement('button');b.textContent='Continue';f.appendChild(b);m.appendChild(f);history.replaceState(null,'','/login?next='+encodeURIComponent(location.pathname));})();`;

function challengePage(status: 200 | 403): string {
  return status === 403
    ? documentHtml({
        language: 'en',
        title: 'Just a moment...',
        body: `<div class="main-wrapper"><h1>Checking if the site connection is secure</h1><p>This process is automatic. Your browser will redirect to your requested content shortly.</p><noscript>Enable JavaScript and cookies to continue</noscript></div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8f1c"></script>`,
      })
    : documentHtml({
        language: 'en',
        title: 'Checking your browser before accessing the site',
        body: `<div id="challenge"><p>Please wait while we verify that you are not a robot.</p></div><script>window._cf_chl_opt={cvId:'3',cType:'managed',cRay:'8f1c0000bbbb'};</script>`,
      });
}

/** Answers one request of a corpus site (robots.txt and sitemap.xml included). */
export function answerCorpusRequest(
  definition: SiteDefinition,
  baseUrl: string,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const url = new URL(request.url ?? '/', baseUrl);
  const path = url.pathname;
  const { content, site } = definition;
  if (path === '/robots.txt') {
    const text = robotsTxt(definition, baseUrl);
    return text === null
      ? send(response, 404, 'text/plain', 'not found')
      : send(response, 200, 'text/plain; charset=utf-8', text);
  }
  if (path === '/sitemap.xml') {
    return definition.hasSitemap
      ? send(response, 200, 'application/xml; charset=utf-8', sitemapXml(definition, baseUrl))
      : send(
          response,
          404,
          HTML,
          documentHtml({ language: content.language, title: 'Not found', body: '<h1>404</h1>' }),
        );
  }
  switch (site.kind) {
    case 'hang':
    case 'closed':
      return; // never answered (the corpus server handles both before this)
    case 'server_error':
      return send(
        response,
        503,
        HTML,
        documentHtml({
          language: 'en',
          title: 'Service unavailable',
          body: '<h1>503 Service Unavailable</h1>',
        }),
        { 'retry-after': '120' },
      );
    case 'challenge':
      return send(
        response,
        site.status,
        HTML,
        challengePage(site.status),
        site.status === 403 ? { 'cf-ray': '8f1c0000aaaa-FRA' } : {},
      );
    case 'empty':
      return send(
        response,
        200,
        HTML,
        documentHtml({
          language: content.language,
          title: content.siteName,
          body: site.isScripted
            ? `<div id="root"></div><script>window.__BUILD__='2024.11';console.log('app ready');</script>`
            : '',
        }),
      );
    case 'login':
      if (site.style === 'redirect') {
        if (path === '/login')
          return send(
            response,
            200,
            HTML,
            loginPage(definition, url.searchParams.get('next') ?? '/'),
          );
        response.writeHead(302, { location: `/login?next=${encodeURIComponent(path)}` }).end();
        return;
      }
      if (site.style === 'in_place') return send(response, 200, HTML, loginPage(definition, path));
      return send(
        response,
        200,
        HTML,
        documentHtml({
          language: content.language,
          title: content.siteName,
          body: `<div id="app"></div><script>${CLIENT_LOGIN_SCRIPT}</script>`,
        }),
      );
    case 'server':
    case 'client':
      break;
  }
  if (path === '/api/comments') {
    return sendJson(response, 200, [
      'Great write-up, thanks for sharing.',
      'We had the same experience last winter.',
    ]);
  }
  if (site.kind === 'client') {
    const dataOf = (pagePath: string) => {
      const found = pageDataAt(content, pagePath);
      return found === undefined ? undefined : clientData(site, found);
    };
    if (path === '/static/client.js')
      return send(response, 200, 'text/javascript; charset=utf-8', clientScript(site));
    if (path === '/static/app.js') {
      const routes = Object.fromEntries(
        sitePaths(content).map((pagePath) => [pagePath, dataOf(pagePath)]),
      );
      return send(
        response,
        200,
        'text/javascript; charset=utf-8',
        `window.ROUTES = ${JSON.stringify(routes)};\n${clientScript(site)}`,
      );
    }
    if (path === '/api/page') {
      const data = dataOf(url.searchParams.get('path') ?? '/');
      return data === undefined
        ? sendJson(response, 404, { error: 'not found' })
        : sendJson(response, 200, data);
    }
    if (path.startsWith('/data/') && path.endsWith('.json')) {
      const pagePath = path.slice('/data'.length, -'.json'.length);
      const data = dataOf(pagePath === '/index' ? '/' : pagePath);
      return data === undefined
        ? sendJson(response, 404, { error: 'not found' })
        : sendJson(response, 200, data);
    }
    if (path === '/fragments') {
      const data = dataOf(url.searchParams.get('path') ?? '/');
      return data === undefined
        ? send(response, 404, HTML, '')
        : send(response, 200, HTML, articleMarkup(data, 'fragment'));
    }
  }
  // A client router serves its shell for every route; other sites 404 unknown pages.
  const data = pageDataAt(
    content,
    site.kind === 'client' &&
      site.source === 'history_router' &&
      pageDataAt(content, path) === undefined
      ? '/'
      : path,
  );
  if (data === undefined) {
    return send(
      response,
      404,
      HTML,
      documentHtml({
        language: content.language,
        title: 'Not found',
        body: '<main><h1>404</h1><p>This page does not exist.</p></main>',
      }),
    );
  }
  return send(
    response,
    200,
    HTML,
    site.kind === 'server'
      ? serverPage(definition, site, path, data)
      : clientPage(definition, site, path, data),
  );
}
