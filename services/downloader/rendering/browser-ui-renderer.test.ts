import { setTimeout as delay } from 'node:timers/promises';
import { browserBuilds } from '../testing/browser-builds';
import { chromiumRenderers } from '../testing/chromium-processes';
import { expectRenderedPage, loopbackRenderEngine } from '../testing/loopback-render-engine';
import { startScriptedOrigin, type ScriptedOrigin } from '../testing/scripted-origin';

// The render browser starts no renderer for Chromium's own user interface (chromium-arguments.ts,
// OMNIBOX_WEBUI_NOTE): every browser window preloads its omnibox popup as a WebUI page in a
// renderer of its own, marked --top-chrome-webui — ~60 MB of PSS for a popup nobody opens.

const HOST = '127.0.0.14';
const PAGE =
  '<!doctype html><html lang="en"><title>page</title><main id="content">text</main></html>';

let origin: ScriptedOrigin;

beforeAll(async () => {
  origin = await startScriptedOrigin(HOST, () => ({ status: 200, body: PAGE }));
});

afterAll(async () => {
  await origin?.close();
});

test.each(browserBuilds())(
  '$name: no renderer process is started for the browser user interface',
  async ({ executablePath }) => {
    const seen = new Map<string, string>();
    const watch = setInterval(() => {
      for (const renderer of chromiumRenderers()) seen.set(renderer.identity, renderer.commandLine);
    }, 25);
    const engine = loopbackRenderEngine([HOST], { concurrency: 2, executablePath });
    try {
      await engine.start();
      await Promise.all(
        ['/first', '/second'].map((path) => expectRenderedPage(engine, `${origin.baseUrl}${path}`)),
      );
      // The popup is preloaded in the background, a moment after its window opens: give it time.
      await delay(3000);
    } finally {
      clearInterval(watch);
      await engine.stop();
    }
    const commandLines = [...seen.values()];
    // The pages' own renderers were seen: the watch works.
    expect(commandLines.length).toBeGreaterThan(0);
    const browserUiRenderers = [...seen]
      .filter(([, commandLine]) => commandLine.includes('--top-chrome-webui'))
      .map(([identity]) => `renderer ${identity} --top-chrome-webui`);
    expect(browserUiRenderers).toEqual([]);
  },
  60_000,
);
