import { DownloaderPageFetcher } from '../downloader-edge/downloader-page-fetcher';
import { DownloaderUnavailableError } from './page-fetcher';
import { SamplingProcedure } from './sampling-procedure';
import { samplingPolicyWith, type SamplingPolicy } from './sampling-policy';
import {
  ScriptedDownloader,
  VirtualClock,
  type ScriptedAnswer,
} from '../testing/scripted-downloader';
import { CSR, SSR } from './testing/sampling-test-pages';

/*
 * The procedure's control flow against a scripted downloader and a virtual clock: the waits it
 * keeps (429, spacing), the order and kind of its requests, when it stops. The detector and the
 * procedure together run against a real downloader in sampling-procedure.integration.test.ts.
 */

const ORIGIN = 'http://site.test';
const SEEN = [`${ORIGIN}/`, `${ORIGIN}/articles/1`, `${ORIGIN}/articles/2`, `${ORIGIN}/articles/3`];

const POLICY: SamplingPolicy = samplingPolicyWith({
  languageIndependentIntervalMs: 1000,
  languageTable: { en: { defaultIntervalMs: 500, isCalibrated: true } },
  maxRateLimitWaitMs: 10_000,
});

type Body = Parameters<ScriptedDownloader['renderPage']>[0];

/** A csr site: robots.txt with Crawl-delay 3, every page an empty mount point filled by script. */
function csrSite(body: Body): ScriptedAnswer {
  if (body.url.endsWith('/robots.txt'))
    return { html: 'User-agent: *\nCrawl-delay: 3\n', contentType: 'text/plain' };
  return { html: body.should_render === false ? CSR.plain : CSR.rendered };
}

function setUp(answer: (body: Body, index: number) => ScriptedAnswer, policy = POLICY) {
  const clock = new VirtualClock();
  const downloader = new ScriptedDownloader(clock, answer);
  const procedure = new SamplingProcedure({
    downloader: new DownloaderPageFetcher(downloader),
    policy,
    clock,
  });
  return { clock, downloader, procedure };
}

describe('SamplingProcedure (control flow)', () => {
  it('honours a 429: waits retry_after_seconds before the one retry, and sends nothing meanwhile', async () => {
    let isLimited = true;
    const { downloader, procedure } = setUp((body) => {
      if (body.url.endsWith('/articles/1') && body.should_render !== false && isLimited) {
        isLimited = false;
        return { retryAfterSeconds: 4 };
      }
      return csrSite(body);
    });
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });

    expect(outcome.verdict).toBe('csr');
    expect(outcome.rateLimitedCount).toBe(1);
    const renders = downloader
      .callsFor('/articles/1')
      .filter((call) => call.body.should_render !== false);
    expect(renders).toHaveLength(2);
    // The retry left no sooner than retry_after_seconds after the 429 came back (50 ms request).
    expect(renders[1].atMs - renders[0].atMs).toBeGreaterThanOrEqual(4000 + 50);
    const limitedAt = renders[0].atMs;
    expect(
      downloader.calls.filter((call) => call.atMs > limitedAt && call.atMs < limitedAt + 4050),
    ).toHaveLength(0);
  });

  it('gives up on a domain once 429s outlast the wait budget, never hammering', async () => {
    const { clock, downloader, procedure } = setUp((body) =>
      body.url.endsWith('/robots.txt')
        ? { html: '', contentType: 'text/plain' }
        : { retryAfterSeconds: 3 },
    );
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });

    expect(outcome.verdict).toBe('unknown');
    expect(outcome.undeterminedReason).toBe('sample_insufficient');
    // 10 s budget / 3 s waits: three waits, four tries, then nothing more.
    expect(downloader.calls).toHaveLength(1 + 4);
    expect(clock.sleeps.filter((ms) => ms === 3000)).toHaveLength(3);
    expect(outcome.rateLimitedCount).toBe(4);
  });

  it('sends the language-independent interval until robots.txt and the language are known, then the max', async () => {
    const { downloader, procedure } = setUp(csrSite);
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });

    const intervals = downloader.calls.map((call) => call.body.min_interval_ms);
    expect(intervals[0]).toBe(1000); // robots.txt: nothing known yet
    expect(intervals.slice(1).every((value) => value === 3000)).toBe(true); // Crawl-delay 3 > en 500
    expect(outcome.minIntervalMs).toBe(3000);
    expect(outcome.language).toBe('en');
    // Paced: each request leaves at least the interval after the previous answer.
    for (let index = 2; index < downloader.calls.length; index += 1) {
      expect(
        downloader.calls[index].atMs - downloader.calls[index - 1].atMs,
      ).toBeGreaterThanOrEqual(3000 + 50);
    }
  });

  it('fetches robots.txt and pages plain, renders only pages, never asks the downloader to store, and stops once two pages agree', async () => {
    const { downloader, procedure } = setUp(csrSite);
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });

    expect(outcome.verdict).toBe('csr');
    expect(outcome.waitSelector).toBe('main');
    expect(outcome.renderCount).toBe(2);
    expect(outcome.plainFetchCount).toBe(3);
    expect(downloader.calls.every((call) => call.body.should_store === false)).toBe(true);
    expect(downloader.callsFor('/robots.txt').map((call) => call.body.should_render)).toEqual([
      false,
    ]);
    expect(outcome.sampledUrlList).toHaveLength(2);
    // The second render already waited for the candidate selector (verifying it).
    const renders = downloader.calls.filter((call) => call.body.should_render === true);
    expect(renders.map((call) => call.body.wait_selector ?? null)).toEqual([null, 'main']);
  });

  it('judges ssr pages and reads the sitemap when the scheduler saw only the home page', async () => {
    const sitemap = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${ORIGIN}/a</loc></url><url><loc>${ORIGIN}/b</loc></url></urlset>`;
    const { downloader, procedure } = setUp((body) => {
      if (body.url.endsWith('/robots.txt'))
        return {
          html: `User-agent: *\nAllow: /\nSitemap: ${ORIGIN}/maps/main.xml\n`,
          contentType: 'text/plain',
        };
      if (body.url.endsWith('/maps/main.xml'))
        return { html: sitemap, contentType: 'application/xml' };
      return { html: SSR.plain };
    });
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: [`${ORIGIN}/`] });

    expect(outcome.verdict).toBe('ssr');
    expect(outcome.waitSelector).toBeNull();
    expect(downloader.callsFor('/maps/main.xml')).toHaveLength(1);
    expect(outcome.sampledUrlList).toEqual([`${ORIGIN}/`, `${ORIGIN}/a`]);
  });

  it('asks for no page robots.txt disallows', async () => {
    const { downloader, procedure } = setUp((body) =>
      body.url.endsWith('/robots.txt')
        ? { html: 'User-agent: *\nDisallow: /\n', contentType: 'text/plain' }
        : { html: SSR.plain },
    );
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });

    expect(outcome).toMatchObject({
      verdict: 'unknown',
      undeterminedReason: 'robots_disallowed',
      renderCount: 0,
    });
    expect(downloader.calls.map((call) => new URL(call.body.url).pathname)).toEqual([
      '/robots.txt',
    ]);
    expect(outcome.robotsTxt).toBe('User-agent: *\nDisallow: /\n');
  });

  it.each([
    ['dns_resolution_failed', 'domain_not_resolvable'],
    ['connection_failed', 'origin_unreachable'],
    ['navigation_timeout', 'origin_unreachable'],
    ['http_server_error', 'origin_unreachable'],
  ])('maps a robots.txt %s to %s without sampling further', async (failReason, reason) => {
    const { downloader, procedure } = setUp(() => ({ failReason }));
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });
    expect(outcome).toMatchObject({ verdict: 'unknown', undeterminedReason: reason });
    expect(downloader.calls).toHaveLength(1);
  });

  it('stops after two unreachable pages instead of pressing a failing origin', async () => {
    const { downloader, procedure } = setUp((body) =>
      body.url.endsWith('/robots.txt')
        ? { failReason: 'http_client_error' }
        : { failReason: 'navigation_timeout' },
    );
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });
    expect(outcome).toMatchObject({
      verdict: 'unknown',
      undeterminedReason: 'origin_unreachable',
      renderCount: 0,
    });
    expect(downloader.calls).toHaveLength(1 + 2);
  });

  it('throws DownloaderUnavailableError when the downloader itself cannot be reached', async () => {
    const { procedure } = setUp(() => ({
      isUnreachable: true,
    }));
    await expect(
      procedure.sample({ domain: 'site.test', seenUrlList: SEEN }),
    ).rejects.toBeInstanceOf(DownloaderUnavailableError);
  });

  it('stops between requests when aborted, also in the middle of a 429 wait', async () => {
    const controller = new AbortController();
    const { downloader, procedure } = setUp((body, index) => {
      if (index === 1) {
        controller.abort(new Error('domain claimed'));
        return { retryAfterSeconds: 2 };
      }
      return csrSite(body);
    });
    await expect(
      procedure.sample({ domain: 'site.test', seenUrlList: SEEN, signal: controller.signal }),
    ).rejects.toThrow('domain claimed');
    expect(downloader.calls).toHaveLength(2);
  });

  it('marks a language outside the calibrated table', async () => {
    const { procedure } = setUp((body) =>
      body.url.endsWith('/robots.txt')
        ? { failReason: 'http_client_error' }
        : { html: SSR.plain.replace('lang="en"', 'lang="th"') },
    );
    const outcome = await procedure.sample({ domain: 'site.test', seenUrlList: SEEN });
    expect(outcome).toMatchObject({
      verdict: 'unknown',
      undeterminedReason: 'language_not_calibrated',
      language: 'th',
      renderCount: 1,
    });
  });
});
