import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackRenderEngine } from '../testing/loopback-render-engine';
import type { RenderEngine } from './render-engine';
import type { RenderOutcome } from './render-outcome';

// wait_selector as the engine waits for it (selector-wait.ts), against real Chromium: an element
// added late, by an attribute change or only in the document a script navigated to, is found; one
// that never appears ends at the deadline; and the wait's own timer never holds the page-complete
// rule once the element is there.

const HOST = '127.0.0.13';
const QUIET_WINDOW_MS = 3000;

const PAGES: Record<string, string> = {
  '/late':
    "setTimeout(function () { var node = document.createElement('section');" +
    " node.id = 'late'; document.body.appendChild(node); }, 300);",
  '/attribute':
    "setTimeout(function () { document.getElementById('box').className = 'ready'; }, 200);",
  '/hop': "setTimeout(function () { location.replace('/landing'); }, 100);",
  '/landing':
    "setTimeout(function () { var node = document.createElement('section');" +
    " node.id = 'late'; document.body.appendChild(node); }, 150);",
  '/never': '',
};

let engine: RenderEngine;
let baseUrl: string;
const server = createServer((request, response) => {
  const script = PAGES[request.url ?? '/'];
  if (script === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html lang="en"><title>${request.url}</title>` +
      `<body><div id="box"></div><script>${script}</script></body></html>`,
  );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  baseUrl = `http://${HOST}:${(server.address() as AddressInfo).port}`;
  engine = loopbackRenderEngine([HOST], {
    concurrency: 2,
    quietWindowMs: QUIET_WINDOW_MS,
    quietWindowCapMs: 5000,
  });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function render(path: string, waitSelector: string, timeoutMs: number): Promise<RenderOutcome> {
  return engine.render({ url: `${baseUrl}${path}`, shouldRender: true, waitSelector, timeoutMs });
}

test('an element a script adds after the load event is waited for', async () => {
  const outcome = await render('/late', 'section#late', 10_000);
  if (outcome.kind !== 'page') throw new Error(JSON.stringify(outcome));
  expect(outcome.page.rendered_html).toContain('id="late"');
});

test('a selector that an attribute change makes match is found', async () => {
  const outcome = await render('/attribute', '#box.ready', 10_000);
  if (outcome.kind !== 'page') throw new Error(JSON.stringify(outcome));
  expect(outcome.page.rendered_html).toContain('class="ready"');
});

test('the wait follows the page into the document a script navigated to', async () => {
  const outcome = await render('/hop', 'section#late', 10_000);
  if (outcome.kind !== 'page') throw new Error(JSON.stringify(outcome));
  expect(new URL(outcome.page.final_url).pathname).toBe('/landing');
  expect(outcome.page.rendered_html).toContain('id="late"');
});

test('a selector that never matches ends at the deadline as wait_selector_timeout', async () => {
  const startedAtMs = Date.now();
  const outcome = await render('/never', '#absent', 1500);
  const elapsedMs = Date.now() - startedAtMs;
  expect(outcome).toEqual(expect.objectContaining({ failReason: 'wait_selector_timeout' }));
  expect(elapsedMs).toBeGreaterThanOrEqual(1400);
  expect(elapsedMs).toBeLessThan(1500 + 2000);
});

test("the wait's own timer is cleared once the element is there: the page completes at once", async () => {
  // The deadline is short enough (under the 5 s cap) for the pending-timer tracker to count a
  // timer of that length as the page's own scheduled work; left running, it would hold the
  // page-complete rule until the quiet window (3 s) ended the wait.
  const outcome = await render('/late', 'section#late', 2500);
  if (outcome.kind !== 'page') throw new Error(JSON.stringify(outcome));
  expect(outcome.page.render_duration_ms).toBeLessThan(QUIET_WINDOW_MS - 1000);
});
