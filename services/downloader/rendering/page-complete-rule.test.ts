import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DestinationPolicy } from '../egress/destination-policy';
import { refuseNameLookup } from '../egress/egress-test-support';
import { RenderEngine } from './render-engine';
import type { PageOutcome, RenderOutcome } from './render-outcome';

// The page-complete rule against real Chromium: a page is complete once nothing is in flight for
// the settle time and nothing is scheduled soon — every XHR still lands in network_log, and a
// request that never answers cannot hold the page past the cap. The engine here has a long
// network-quiet window (3 s), so finishing well before it proves the fast rule ended the wait.

const HOST = '127.0.0.12';
const QUIET_WINDOW_MS = 3000;
const CAP_MS = 5000;

/** Every page shows its wait_selector at once; what differs is the work it schedules after. */
const PAGES: Record<string, string> = {
  '/static': '',
  '/timer': "setTimeout(function () { fetch('/api/after-timer'); }, 250);",
  '/load-timer':
    "window.addEventListener('load', function () { setTimeout(function () {" +
    " var request = new XMLHttpRequest(); request.open('GET', '/api/late'); request.send(); }, 300); });",
  '/chain':
    "fetch('/api/first').then(function (response) { return response.json(); })" +
    ".then(function (body) { return fetch('/api/' + body.next); })" +
    ".then(function () { setTimeout(function () { fetch('/api/third'); }, 150); });",
  '/long-poll': "fetch('/api/hold').catch(function () {});",
  '/introspect':
    "var report = document.getElementById('content');" +
    'var isNative = /\\[native code\\]/.test(Function.prototype.toString.call(setTimeout));' +
    "var visible = Object.keys(window).filter(function (key) { return key.indexOf('pendingWork') >= 0; });" +
    "setTimeout(function (word) { report.textContent = 'setTimeout: ' + (isNative ? 'native' : 'wrapped') +" +
    " '; named ' + setTimeout.name + '; visible globals: ' + visible.length + '; timer ' + word; }, 0, 'ran');",
  '/idle-callback':
    "requestIdleCallback(function () { fetch('/api/when-idle'); }, { timeout: 500 });",
};

let engine: RenderEngine;
let baseUrl: string;
const heldResponses = new Set<ServerResponse>();
const server = createServer((request, response) => {
  const path = request.url ?? '/';
  if (path === '/api/hold') {
    heldResponses.add(response); // a long poll: never answered while the test runs
    response.once('close', () => heldResponses.delete(response));
    return;
  }
  if (path.startsWith('/api/')) {
    const body = path === '/api/first' ? { next: 'second' } : { path };
    setTimeout(() => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    }, 40);
    return;
  }
  const script = PAGES[path];
  if (script === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html lang="en"><title>${path}</title>` +
      `<main id="content"><p>Ready at once.</p></main><script>${script}</script></html>`,
  );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  baseUrl = `http://${HOST}:${(server.address() as AddressInfo).port}`;
  engine = new RenderEngine({
    destinationPolicy: new DestinationPolicy({ allowedHosts: [HOST] }),
    hostLookup: refuseNameLookup,
    concurrency: 2,
    settleMs: 100,
    quietWindowMs: QUIET_WINDOW_MS,
    quietWindowCapMs: CAP_MS,
  });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop();
  for (const response of heldResponses) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function renderPage(path: string): Promise<PageOutcome> {
  const outcome: RenderOutcome = await engine.render({
    url: `${baseUrl}${path}`,
    shouldRender: true,
    waitSelector: '#content',
    timeoutMs: 15_000,
  });
  if (outcome.kind !== 'page') throw new Error(`expected a page, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function xhrsOf(outcome: PageOutcome): Array<{ path: string; status: number | null }> {
  return outcome.page.network_log
    .filter((entry) => entry.type === 'xhr')
    .map((entry) => ({ path: new URL(entry.url).pathname, status: entry.http_status }));
}

test('a page with nothing scheduled is complete long before the quiet window', async () => {
  const outcome = await renderPage('/static');
  expect(xhrsOf(outcome)).toEqual([]);
  expect(outcome.page.render_duration_ms).toBeLessThan(QUIET_WINDOW_MS);
});

test('an XHR a timer starts after the selector appeared is in network_log', async () => {
  const outcome = await renderPage('/timer');
  expect(xhrsOf(outcome)).toEqual([{ path: '/api/after-timer', status: 200 }]);
  expect(outcome.page.render_duration_ms).toBeLessThan(QUIET_WINDOW_MS);
});

test('a late XMLHttpRequest started by the load handler is caught', async () => {
  const outcome = await renderPage('/load-timer');
  expect(xhrsOf(outcome)).toEqual([{ path: '/api/late', status: 200 }]);
  expect(outcome.page.render_duration_ms).toBeLessThan(QUIET_WINDOW_MS);
});

test('a chain of requests, each started by the answer of the one before, is caught whole', async () => {
  const outcome = await renderPage('/chain');
  expect(xhrsOf(outcome)).toEqual([
    { path: '/api/first', status: 200 },
    { path: '/api/second', status: 200 },
    { path: '/api/third', status: 200 },
  ]);
  expect(outcome.page.render_duration_ms).toBeLessThan(QUIET_WINDOW_MS);
});

test('an idle callback that starts a request is waited for', async () => {
  const outcome = await renderPage('/idle-callback');
  expect(xhrsOf(outcome)).toEqual([{ path: '/api/when-idle', status: 200 }]);
});

test('a long-polling request that never answers holds the page until the cap, not longer', async () => {
  const startedAtMs = Date.now();
  const outcome = await renderPage('/long-poll');
  expect(xhrsOf(outcome)).toEqual([{ path: '/api/hold', status: null }]);
  expect(outcome.page.render_duration_ms).toBeGreaterThanOrEqual(CAP_MS);
  expect(Date.now() - startedAtMs).toBeLessThan(CAP_MS + 5000);
});

test('the pending-work tracker leaves the page its native-looking timers and no visible globals', async () => {
  const outcome = await renderPage('/introspect');
  expect(outcome.page.rendered_html).toContain(
    'setTimeout: native; named setTimeout; visible globals: 0; timer ran',
  );
  expect(outcome.page.console_errors).toEqual([]);
});
