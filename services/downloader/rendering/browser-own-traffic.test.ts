import { startDemoSite, type DemoSite } from '../../../scripts/demo-site/demo-site';
import { loopbackRenderEngine } from '../testing/loopback-render-engine';
import type { RenderEngine } from './render-engine';

/**
 * Chromium contacts services of its own (component updates, sign-in) whatever flags it is given.
 * That traffic must not reach the egress proxy — where it would be resolved and, on a network
 * that allows it, sent — only the pages' traffic may.
 */
describe("the render browser's own traffic", () => {
  let site: DemoSite;
  let engine: RenderEngine;

  beforeAll(async () => {
    site = await startDemoSite({ crawlDelaySeconds: 0 });
    engine = loopbackRenderEngine(site.hosts, { concurrency: 1 });
    await engine.start();
  });

  afterAll(async () => {
    await engine?.stop();
    await site?.stop();
  });

  test('pages go through the egress proxy; nothing else does', async () => {
    const outcome = await engine.render({
      url: `${site.baseUrls[0]}/`,
      shouldRender: true,
      waitSelector: null,
      timeoutMs: 10_000,
    });
    expect(outcome.kind).toBe('page');
    // Chromium 156 tries update.googleapis.com and accounts.google.com within a second of launch.
    await new Promise((settle) => setTimeout(settle, 2000));
    const proxied = engine.egressProxyCounters;
    expect(proxied.requestCount).toBeGreaterThan(0);
    // The demo pages are plain HTTP: every tunnel the egress proxy was asked for was Chromium's.
    expect(proxied.tunnelCount).toBe(0);
    expect(proxied.failedCount).toBe(0);
  });
});
