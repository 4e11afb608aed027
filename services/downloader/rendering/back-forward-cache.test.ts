import { setTimeout as delay } from 'node:timers/promises';
import { browserBuilds } from '../testing/browser-builds';
import { expectRenderedPage, loopbackRenderEngine } from '../testing/loopback-render-engine';
import { startScriptedOrigin, type ScriptedOrigin } from '../testing/scripted-origin';
import type { RenderEngine } from './render-engine';

// A reused page must not keep the documents it navigated away from (chromium-arguments.ts): with
// Chromium's back/forward cache on, each one stays alive, frozen, in the renderer. The page tells
// the origin how it was left — `pagehide` says `persisted: true` when the document went into the
// cache instead of being unloaded.

const HOST = '127.0.0.13';
const PAGE =
  '<!doctype html><html lang="en"><title>page</title><main id="content">text</main><script>' +
  "addEventListener('pagehide', function (event) {" +
  " navigator.sendBeacon('/left?persisted=' + event.persisted); });" +
  '</script></html>';

describe.each(browserBuilds())('$name', ({ executablePath }) => {
  let origin: ScriptedOrigin;
  let engine: RenderEngine;

  beforeAll(async () => {
    origin = await startScriptedOrigin(HOST, (path) =>
      path.startsWith('/left') ? { status: 204, body: '' } : { status: 200, body: PAGE },
    );
    // One page: the second render navigates the page that showed the first.
    engine = loopbackRenderEngine([HOST], { concurrency: 1, executablePath });
    await engine.start();
  });

  afterAll(async () => {
    await engine?.stop();
    await origin?.close();
  });

  test('a page navigating on unloads the document it leaves instead of caching it', async () => {
    await expectRenderedPage(engine, `${origin.baseUrl}/first`);
    await expectRenderedPage(engine, `${origin.baseUrl}/second`);
    const left = (): string[] => origin.requestedPaths.filter((path) => path.startsWith('/left'));
    // The beacon is sent as the first page is left; it may arrive after the second render ends, and
    // the second page may be left too by then (an idle page goes to about:blank after 500 ms).
    for (let attempt = 0; attempt < 50 && left().length === 0; attempt += 1) await delay(100);
    expect(left().length).toBeGreaterThan(0);
    expect(new Set(left())).toEqual(new Set(['/left?persisted=false']));
  }, 60_000);
});
