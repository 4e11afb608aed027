import tty from 'node:tty';
import { DestinationPolicy } from '../egress/destination-policy';
import { refuseNameLookup } from '../egress/egress-test-support';
import { startScriptedOrigin, type ScriptedOrigin } from '../testing/scripted-origin';
import { RenderEngine } from './render-engine';

// puppeteer hands every CDP message to the `debug` package, which asked the terminal about colours
// (a system call) each time (debug-color-check.ts): a render must not.

const HOST = '127.0.0.17';
const PAGE =
  '<!doctype html><html lang="en"><title>page</title><main id="content">text</main></html>';

let origin: ScriptedOrigin;
let engine: RenderEngine;

beforeAll(async () => {
  origin = await startScriptedOrigin(HOST, () => ({ status: 200, body: PAGE }));
  engine = new RenderEngine({
    destinationPolicy: new DestinationPolicy({ allowedRanges: [HOST] }),
    hostLookup: refuseNameLookup,
    concurrency: 1,
  });
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
      const outcome = await engine.render({
        url: `${origin.baseUrl}${path}`,
        shouldRender: true,
        waitSelector: '#content',
        timeoutMs: 15_000,
      });
      expect(outcome.kind).toBe('page');
    }
    expect(isatty).not.toHaveBeenCalled();
  } finally {
    isatty.mockRestore();
  }
}, 60_000);
