import { escapeHtml, pageDocument } from './demo-page-html';

/**
 * Pages no demo page links to (so they stay out of the reachable set): they exist for the engine's
 * tests — challenge detection, refused destinations, empty content, size limits, error statuses.
 */

/** Looks like a bot-challenge interstitial: challenge title, little text, a challenge script path. */
export function challengePage(): string {
  return [
    '<!DOCTYPE html><html lang="en"><head><title>Just a moment...</title></head><body>',
    '<p>Checking your browser before accessing the demo site.</p>',
    '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>',
    '</body></html>',
  ].join('\n');
}

/**
 * References `target` (a host:port authority) in every way a page can make the browser connect:
 * script, stylesheet, iframe, image, fetch, XMLHttpRequest, WebSocket — over http and https.
 */
export function referencesPage(targetAuthority: string): string {
  const http = `http://${targetAuthority}`;
  const https = `https://${targetAuthority}`;
  const urls = JSON.stringify({ http, https, ws: `ws://${targetAuthority}/socket` });
  return pageDocument(
    'References to another destination',
    [
      `<main id="content"><p>This page points at ${escapeHtml(targetAuthority)}.</p>`,
      `<a href="${escapeHtml(http)}/link">a link (not fetched by a renderer)</a></main>`,
      `<script src="${escapeHtml(http)}/script.js"></script>`,
      `<script src="${escapeHtml(https)}/script.js"></script>`,
      `<link rel="stylesheet" href="${escapeHtml(http)}/style.css">`,
      `<iframe src="${escapeHtml(http)}/frame"></iframe>`,
      `<img src="${escapeHtml(http)}/image.png" alt="">`,
      `<script>(function () { var u = ${urls};`,
      "fetch(u.http + '/fetch').catch(function () {});",
      "fetch(u.https + '/fetch').catch(function () {});",
      "var x = new XMLHttpRequest(); x.open('GET', u.http + '/xhr'); x.send();",
      'try { new WebSocket(u.ws); } catch (e) {}',
      '})();</script>',
    ].join('\n'),
  );
}

/** Opens an alert (blocks scripts until answered) and a popup (a page nobody watches). */
export function interruptionsPage(): string {
  return pageDocument(
    'Interruptions',
    [
      '<main id="content"><p id="before">before the alert</p></main>',
      "<script>alert('demo alert'); window.open('/popup-target');",
      "var p = document.createElement('p'); p.id = 'after'; p.textContent = 'after the alert';",
      "document.getElementById('content').appendChild(p);</script>",
    ].join('\n'),
  );
}

/** Rendering succeeds but the content region holds no visible text. */
export function emptyPage(): string {
  return pageDocument('Nothing here', '<main id="content">  \n  </main>');
}

/** A page whose HTML is about `byteCount` bytes. */
export function largePage(byteCount: number): string {
  return pageDocument('Large page', `<main id="content"><p>${'x'.repeat(byteCount)}</p></main>`);
}

export function statusPage(status: number): string {
  return pageDocument(
    `Status ${status}`,
    `<main id="content"><p>The demo answered ${status}.</p></main>`,
  );
}

export function slowPage(delayMs: number): string {
  return pageDocument(
    'Slow page',
    `<main id="content"><p>Answered after ${delayMs} ms.</p></main>`,
  );
}
