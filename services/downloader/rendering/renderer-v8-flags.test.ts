import { startDemoSite, type DemoSite } from '../../../scripts/demo-site/demo-site';
import { chromiumRenderers } from '../testing/chromium-processes';
import { loopbackRenderEngine } from '../testing/loopback-render-engine';

/**
 * The pages' V8 is tuned for size (chromium-arguments.ts, V8_SIZE_NOTE): the browser hands the
 * flag to every renderer it starts — a Chromium that stopped passing `--js-flags` on (or a flag
 * list that lost it) would quietly raise the renderers' memory by half or more.
 */
describe("the renderers' V8 flags", () => {
  let site: DemoSite;

  beforeAll(async () => {
    site = await startDemoSite({ crawlDelaySeconds: 0 });
  });

  afterAll(async () => {
    await site?.stop();
  });

  test('every renderer of a rendering engine runs V8 with --optimize-for-size', async () => {
    const engine = loopbackRenderEngine(site.hosts, { concurrency: 2 });
    await engine.start();
    try {
      const outcomes = await Promise.all(
        site.baseUrls.slice(0, 2).map((baseUrl) =>
          engine.render({
            url: `${baseUrl}/`,
            shouldRender: true,
            waitSelector: null,
            timeoutMs: 15_000,
          }),
        ),
      );
      expect(outcomes.map((outcome) => outcome.kind)).toEqual(['page', 'page']);
      const renderers = chromiumRenderers();
      expect(renderers.length).toBeGreaterThan(0);
      for (const renderer of renderers) {
        expect(renderer.commandLine).toContain('--js-flags=--optimize-for-size');
      }
    } finally {
      await engine.stop();
    }
  });
});
