import { DemoSite, startDemoSite } from '../../../scripts/demo-site/demo-site';
import { textOfJsonValue, valueAtPointer, matchedCharacterCount } from '../../common/api-endpoint';
import { normalizeUrl } from '../../common/url/normalize-url';
import {
  startTestDownloader,
  waitUntil,
  type TestDownloader,
} from '../testing/downloader-test-harness';
import { FAKE_SAMPLER_TOKEN, startFakeSampler, type FakeSampler } from '../testing/fake-sampler';

// Rendering a client-rendered page whose content came from its own JSON XHR posts one hint to the
// sampler (real Chromium, the demo site, a fake sampler with the generated router). The demo's
// first host is client-rendered (/api/page), the second serves its articles in the HTML.
let site: DemoSite;

beforeAll(async () => {
  site = await startDemoSite({ crawlDelaySeconds: 0, clientRenderedHosts: ['127.0.0.2'] });
});

afterAll(async () => {
  await site?.stop();
});

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function metric(downloader: TestDownloader, line: string): Promise<number> {
  const text = await (await fetch(`${downloader.url}/metrics`)).text();
  const found = text.split('\n').find((candidate) => candidate.startsWith(line));
  return found === undefined ? 0 : Number(found.split(' ').pop());
}

/** A fake sampler of that contract and a downloader sending it hints, for the enclosing block. */
function withSampler(
  contractVersion: 'v1' | 'v2',
): () => { sampler: FakeSampler; downloader: TestDownloader } {
  let sampler: FakeSampler;
  let downloader: TestDownloader;
  beforeAll(async () => {
    sampler = await startFakeSampler(contractVersion);
    downloader = await startTestDownloader({
      allowDestinations: site.hosts,
      sampler: { url: sampler.url, token: FAKE_SAMPLER_TOKEN },
    });
  });
  afterAll(async () => {
    await downloader?.dispose();
    await sampler?.close();
  });
  return () => ({ sampler, downloader });
}

describe('with a v2 sampler', () => {
  const peers = withSampler('v2');
  let sampler: FakeSampler;
  let downloader: TestDownloader;

  beforeAll(() => ({ sampler, downloader } = peers()));

  test('a client-rendered page yields exactly one hint, once per endpoint URL', async () => {
    const pageUrl = normalizeUrl(`${site.baseUrls[0]}/articles/1`);
    const rendered = await downloader.client.renderPage({
      url: pageUrl,
      should_store: false,
      min_interval_ms: 0,
    });
    await waitUntil(() => sampler.hints.length > 0, 5000);
    // Rendered again: the endpoint was already reported by this process.
    await downloader.client.renderPage({ url: pageUrl, should_store: false, min_interval_ms: 0 });
    await sleep(1500); // longer than the batch delay
    expect(sampler.hints).toHaveLength(1);
    const [hint] = sampler.hints;
    expect(hint).toMatchObject({
      domain: site.hosts[0],
      page_url: pageUrl,
      endpoint_url: normalizeUrl(`${site.baseUrls[0]}/api/page?path=%2Farticles%2F1`),
      observed_at: rendered.fetched_at,
      // Heading, text and link texts sit in different keys: only the whole answer has them all.
      content_pointer: '',
    });
    expect(hint.text_character_count).toBeGreaterThanOrEqual(20);
    expect(hint.matched_character_count).toBeGreaterThanOrEqual(0.6 * hint.text_character_count);
    expect(hint.matched_character_count).toBeLessThanOrEqual(hint.text_character_count);
    // The pointer names a value of the endpoint's answer that carries the article.
    const answer: unknown = await (await fetch(hint.endpoint_url)).json();
    const value = valueAtPointer(answer, hint.content_pointer);
    expect(value).toBeDefined();
    expect(
      matchedCharacterCount(textOfJsonValue(value), 'The first article body.'),
    ).toBeGreaterThan(0);
    expect(await metric(downloader, 'downloader_api_endpoint_hint_total{result="found"}')).toBe(1);
    expect(await metric(downloader, 'downloader_api_endpoint_hint_total{result="accepted"}')).toBe(
      1,
    );
  });

  test('a server-rendered page yields no hint', async () => {
    const before = sampler.hints.length;
    for (const path of ['/articles/1', '/about']) {
      await downloader.client.renderPage({
        url: `${site.baseUrls[1]}${path}`,
        should_store: false,
        min_interval_ms: 0,
      });
    }
    await sleep(1500);
    expect(sampler.hints.slice(before)).toEqual([]);
  });
});

describe('with a v1 sampler (no hint route)', () => {
  const peers = withSampler('v1');
  let sampler: FakeSampler;
  let downloader: TestDownloader;

  beforeAll(() => ({ sampler, downloader } = peers()));

  test('a 404 route_not_found stops hints for a while: no retries, no further calls', async () => {
    await downloader.client.renderPage({
      url: `${site.baseUrls[0]}/articles/1`,
      should_store: false,
      min_interval_ms: 0,
    });
    await waitUntil(() => sampler.hintCallCount > 0, 5000);
    await sleep(300);
    expect(sampler.hintCallCount).toBe(1); // a 404 is definitive: not retried
    const rendered = await downloader.client.renderPage({
      url: `${site.baseUrls[0]}/articles/2`,
      should_store: false,
      min_interval_ms: 0,
    });
    expect(rendered.fetch_status).toBe('done'); // the render itself is untouched
    await sleep(1500);
    expect(sampler.hintCallCount).toBe(1);
    expect(await metric(downloader, 'downloader_api_endpoint_hint_total{result="dropped"}')).toBe(
      2,
    );
  });
});
