import { DemoSite, startDemoSite } from '../../scripts/demo-site/demo-site';
import {
  startTestDownloader,
  TEST_DOWNLOADER_TOKEN,
  waitUntil,
  type TestDownloader,
} from './testing/downloader-test-harness';

// The renderer heap collection as an operator configures and sees it: the setting reaches the
// engine, and the collections show on /metrics (renderer-heap-reclaim.ts has the rules). A
// threshold of 1 MiB: any renderer that rendered a page holds more, so every check collects.
let site: DemoSite;
let downloader: TestDownloader;

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  downloader = await startTestDownloader({
    allowDestinations: site.hosts,
    extraArguments: ['--page-pool-size', '1', '--renderer-heap-collect-above-mb', '1'],
  });
}, 60_000);

afterAll(async () => {
  await downloader?.dispose();
  await site?.stop();
});

async function metricsText(): Promise<string> {
  const response = await fetch(`${downloader.url}/metrics`, {
    headers: { authorization: `Bearer ${TEST_DOWNLOADER_TOKEN}` },
  });
  return response.text();
}

function collectionCountOf(metrics: string): number {
  const match = /^downloader_renderer_heap_collection_duration_seconds_count (\d+)$/m.exec(metrics);
  return Number(match?.[1] ?? Number.NaN);
}

test("a page's renderer is collected above the configured heap size, and counted", async () => {
  expect(collectionCountOf(await metricsText())).toBe(0);
  const page = await downloader.client.renderPage({
    url: `${site.baseUrls[0]}/csr`,
    wait_selector: '#content',
  });
  expect(page.fetch_status).toBe('done');
  // The collection runs after the answer, while the page is idle (the wait_selector check before
  // the render returns the page too, so there may be one or two).
  await waitUntil(async () => collectionCountOf(await metricsText()) >= 1, 10_000);
  const metrics = await metricsText();
  expect(metrics).toMatch(/^downloader_renderer_heap_freed_bytes_total \d+$/m);
}, 30_000);
