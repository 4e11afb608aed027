import { DemoSite, startDemoSite } from '../../scripts/demo-site/demo-site';
import {
  startTestDownloader,
  TEST_DOWNLOADER_TOKEN,
  waitUntil,
  type TestDownloader,
} from './testing/downloader-test-harness';

// The self-sizing page pool as an operator sees it: GET /v1/operator/page-pool and /metrics, on a
// real downloader (real Chromium, real /proc readings). Its renderers are collected above 1 MiB of
// heap — any renderer that rendered a page holds more, so every check collects — to see the
// setting reach the engine and the collections reach /metrics (renderer-heap-reclaim.ts has the
// rules).
let site: DemoSite;
let downloader: TestDownloader;

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0 });
  downloader = await startTestDownloader({
    allowDestinations: site.hosts,
    extraArguments: [
      ...['--page-pool-size', 'auto', '--max-concurrent-count', '6'],
      ...['--renderer-heap-collect-above-mb', '1'],
    ],
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

test('starts self-sizing within its bounds and reports what the sizer measured', async () => {
  const started = await downloader.client.getPagePool();
  expect(started).toMatchObject({
    min_page_count: 1,
    max_page_count: 6,
    is_self_sizing: true,
    busy_page_count: 0,
    waiting_render_count: 0,
  });
  expect(started.page_count).toBeGreaterThanOrEqual(1);
  expect(started.page_count).toBeLessThanOrEqual(6);
  expect(started.last_changed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  await downloader.client.renderPage({ url: `${site.baseUrls[0]}/csr`, wait_selector: '#content' });
  // The first window closes after three one-second samples.
  await waitUntil(
    async () => (await downloader.client.getPagePool()).machine_busy_ratio !== null,
    15_000,
  );
  const measured = await downloader.client.getPagePool();
  expect(measured.machine_busy_ratio).toBeGreaterThanOrEqual(0);
  expect(measured.machine_busy_ratio).toBeLessThanOrEqual(1);
  expect(measured.downloader_busy_ratio).toBeLessThanOrEqual(measured.machine_busy_ratio as number);
  // Node and Chromium together take well over 50 MB.
  expect(measured.downloader_memory_byte_count).toBeGreaterThan(50 * 1024 * 1024);
  expect(measured.memory_available_byte_count).toBeGreaterThan(0);
  expect(measured.event_loop_delay_ms).toBeGreaterThanOrEqual(0);
  expect(measured.demand_ratio).toBeGreaterThanOrEqual(0);
}, 30_000);

test('a lowered brake shrinks the pool at once; rendering goes on', async () => {
  const before = await downloader.client.getPagePool();
  await downloader.client.updateConcurrencyConfig({ max_concurrent_count: 1 });
  const after = await downloader.client.getPagePool();
  expect(after).toMatchObject({
    page_count: 1,
    max_page_count: 1,
    pool_size_reason: 'brake_lowered',
    previous_page_count: before.page_count,
  });
  // Another host than the first test's: its render may be less than the host's interval ago
  // (entry B answers 429 then, as it should).
  const page = await downloader.client.renderPage({ url: `${site.baseUrls[1]}/about` });
  expect(page.fetch_status).toBe('done');
  const metrics = await metricsText();
  expect(metrics).toMatch(/^downloader_page_pool_size 1$/m);
  expect(metrics).toMatch(/^downloader_page_pool_max_size 1$/m);
  expect(metrics).toMatch(
    /^downloader_page_pool_last_change_reason\{pool_size_reason="brake_lowered"\} 1$/m,
  );
  expect(metrics).toMatch(
    /^downloader_page_pool_last_change_reason\{pool_size_reason="initial_size"\} 0$/m,
  );
  expect(metrics).toMatch(
    /^downloader_page_pool_resize_total\{pool_size_reason="brake_lowered"\} 1$/m,
  );
  expect(metrics).toMatch(/^downloader_process_tree_pss_bytes \d+/m);
});

test("a page's renderer is collected above the configured heap size, and counted", async () => {
  const page = await downloader.client.renderPage({
    url: `${site.baseUrls[2]}/csr`,
    wait_selector: '#content',
  });
  expect(page.fetch_status).toBe('done');
  // The collection runs after the answer, while the page is idle.
  await waitUntil(async () => collectionCountOf(await metricsText()) >= 1, 10_000);
  expect(await metricsText()).toMatch(/^downloader_renderer_heap_freed_bytes_total \d+$/m);
}, 30_000);
