import tty from 'node:tty';
import { expectRenderedPage, loopbackRenderEngine } from '../testing/loopback-render-engine';
import { startScriptedOrigin, type ScriptedOrigin } from '../testing/scripted-origin';
import type { RenderEngine } from './render-engine';

// puppeteer hands every CDP message to the `debug` package, which asked the terminal about colours
// (a system call) each time (debug-color-check.ts): a render must not.

const HOST = '127.0.0.17';
const PAGE =
  '<!doctype html><html lang="en"><title>page</title><main id="content">text</main></html>';

let origin: ScriptedOrigin;
let engine: RenderEngine;

beforeAll(async () => {
  origin = await startScriptedOrigin(HOST, () => ({ status: 200, body: PAGE }));
  engine = loopbackRenderEngine([HOST], { concurrency: 1 });
  await engine.start();
});

afterAll(async () => {
  await engine?.stop();
  await origin?.close();
});

test('rendering pages asks the terminal nothing, however many CDP messages it takes', async () => {
  const isatty = jest.spyOn(tty, 'isatty');
  try {
    for (const path of ['/first', '/second', '/third']) {
      await expectRenderedPage(engine, `${origin.baseUrl}${path}`);
    }
    expect(isatty).not.toHaveBeenCalled();
  } finally {
    isatty.mockRestore();
  }
}, 60_000);
