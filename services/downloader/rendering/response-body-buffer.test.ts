import type { Browser, Protocol } from 'puppeteer-core';
import { launchTestBrowser } from '../../common/testing/launch-test-browser';
import { startScriptedOrigin, type ScriptedOrigin } from '../testing/scripted-origin';
import { networkEnableParameters } from './response-body-buffer';

// What Chromium keeps of a page's response bodies follows networkEnableParameters: with body
// reads on, the page's JSON answer can be read back after it arrived; with them off, Chromium kept
// nothing to read (a Chromium that ignored the zero buffers would fail the second test).

const HOST = '127.0.0.19';
const ANSWER = JSON.stringify({ story: 'Harbour reopens after the storm.' });
const PAGE =
  '<!doctype html><html lang="en"><title>page</title><main id="content"></main><script>' +
  "fetch('/api/story').then((answer) => answer.text()).then((text) => {" +
  " document.getElementById('content').textContent = text; });" +
  '</script></html>';

describe('response body buffer', () => {
  let origin: ScriptedOrigin;
  let browser: Browser;

  beforeAll(async () => {
    origin = await startScriptedOrigin(HOST, (path) =>
      path === '/api/story'
        ? { status: 200, body: ANSWER, contentType: 'application/json' }
        : { status: 200, body: PAGE },
    );
    browser = await launchTestBrowser([HOST]);
  });

  afterAll(async () => {
    await browser?.close();
    await origin?.close();
  });

  /** Renders the page with Network enabled as given; answers getResponseBody for its JSON call. */
  async function readJsonBodyAfterRender(isResponseBodyRead: boolean): Promise<string> {
    const page = await browser.newPage();
    try {
      const session = await page.createCDPSession();
      await session.send('Network.enable', networkEnableParameters(isResponseBodyRead));
      const finished = new Promise<string>((resolve) => {
        let apiRequestId: string | undefined;
        session.on(
          'Network.requestWillBeSent',
          (event: Protocol.Network.RequestWillBeSentEvent) => {
            if (event.request.url.endsWith('/api/story')) apiRequestId = event.requestId;
          },
        );
        session.on('Network.loadingFinished', (event: Protocol.Network.LoadingFinishedEvent) => {
          if (event.requestId === apiRequestId) resolve(event.requestId);
        });
      });
      await page.goto(`${origin.baseUrl}/`, { waitUntil: 'load' });
      const requestId = await finished;
      await page.waitForFunction(() => document.getElementById('content')?.textContent !== '');
      const { body } = await session.send('Network.getResponseBody', { requestId });
      return body;
    } finally {
      await page.close();
    }
  }

  test('kept when renders read bodies (API evidence)', async () => {
    await expect(readJsonBodyAfterRender(true)).resolves.toBe(ANSWER);
  }, 30_000);

  test('not kept otherwise', async () => {
    await expect(readJsonBodyAfterRender(false)).rejects.toThrow();
  }, 30_000);

  test('room for the bodies the JSON collector may read, and none otherwise', () => {
    expect(networkEnableParameters(false)).toEqual({
      maxTotalBufferSize: 0,
      maxResourceBufferSize: 0,
    });
    const kept = networkEnableParameters(true);
    expect(kept.maxResourceBufferSize).toBeGreaterThanOrEqual(1024 * 1024);
    expect(kept.maxTotalBufferSize).toBeGreaterThanOrEqual(20 * (kept.maxResourceBufferSize ?? 0));
  });
});
