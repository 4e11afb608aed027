import { Registry } from 'prom-client';
import type { Browser } from 'puppeteer-core';
import downloaderDocument from '../../../generated/downloader/openapi.json';
import { createCapturingLogger } from '../testing/capture-logger';
import { launchTestBrowser } from '../testing/launch-test-browser';
import { listenOnLoopback } from '../testing/listen-on-loopback';
import { createServiceRequestListener } from './create-service-request-listener';

/** The API reference as a newcomer sees it, in real Chromium (which has no CJK font here). */
describe('the API reference page', () => {
  let browser: Browser;
  let server: Awaited<ReturnType<typeof listenOnLoopback>>;
  const captured = createCapturingLogger('debug');

  beforeAll(async () => {
    const app = createServiceRequestListener({
      serviceName: 'downloader',
      logger: captured.logger,
      registry: new Registry(),
      contractRouter: (_request, _response, next) => next(), // a contract of no operations
      apiDocument: downloaderDocument,
      startedAt: '2026-12-01T00:00:00Z',
      isReady: () => true,
    });
    server = await listenOnLoopback(app);
    browser = await launchTestBrowser();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the contract section marks in a font-independent form', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('.information-container .description');
    const description = await page.$eval(
      '.information-container .description',
      (element) => element.textContent ?? '',
    );
    expect(description).toContain('CONTRACT.md §2 and §8');
    expect(description).not.toMatch(/[一二三四五六七八九十]/);
    // The document itself is served as written.
    const served = await (await fetch(`${server.url}/openapi.json`)).text();
    expect(served).toContain('CONTRACT.md §二 and §八');
    await page.close();
  }, 30_000);

  it('answers the browser favicon request with 204 and logs nothing for it', async () => {
    const response = await fetch(`${server.url}/favicon.ico`);
    expect(response.status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(JSON.stringify(captured.lines())).not.toContain('favicon');
  });
});
