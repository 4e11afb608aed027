import { CRAWLER_PRODUCT_TOKEN } from '../../common/config/crawler-identity';
import {
  startTestDownloader,
  type TestDownloader,
} from '../../downloader/testing/downloader-test-harness';
import {
  startSamplingCorpus,
  type SamplingCorpus,
} from '../../../scripts/demo-site/sampling-corpus/sampling-corpus';
import { outcomeKey } from '../../../scripts/sampler-calibration/calibration-run';
import { DownloaderPageFetcher } from '../downloader-edge/downloader-page-fetcher';
import type { DomainSampleOutcome } from './domain-sampler';
import { SamplingProcedure } from './sampling-procedure';
import { samplingPolicyWith, withUniformIntervalMs } from './sampling-policy';

/*
 * The procedure end to end on a few corpus domains: a real downloader (HTTP, rate limit, robots,
 * real Chromium) in front of the corpus sites on their own loopback addresses.
 */

const NAMES = [
  'csr-xhr-news',
  'ssr-articles',
  'partial-shell',
  'login-redirect',
  'robots-disallow-all',
];

jest.setTimeout(90_000);

describe('SamplingProcedure through a real downloader', () => {
  let corpus: SamplingCorpus;
  let downloader: TestDownloader;
  const outcomes = new Map<string, DomainSampleOutcome>();

  beforeAll(async () => {
    corpus = await startSamplingCorpus({ names: NAMES });
    downloader = await startTestDownloader({
      allowDestinations: corpus.domains.map((domain) => domain.host),
      extraArguments: ['--default-min-interval-ms', '100'],
    });
    const procedure = new SamplingProcedure({
      downloader: new DownloaderPageFetcher(downloader.client),
      policy: withUniformIntervalMs(
        samplingPolicyWith({
          plainTimeoutMs: 5000,
          renderTimeoutMs: 15_000,
          delayedContentWaitMs: 3000,
        }),
        100,
      ),
    });
    await Promise.all(
      corpus.domains.map(async (domain) => {
        outcomes.set(
          domain.entry.name,
          await procedure.sample({ domain: domain.host, seenUrlList: domain.seenUrlList }),
        );
      }),
    );
  });

  afterAll(async () => {
    await downloader?.dispose();
    await corpus?.stop();
  });

  it('gives each domain its labelled verdict', () => {
    for (const domain of corpus.domains) {
      expect({
        name: domain.entry.name,
        judged: outcomeKey(outcomes.get(domain.entry.name)!),
      }).toEqual({
        name: domain.entry.name,
        judged: outcomeKey(domain.entry.label),
      });
    }
  });

  it('derives a wait_selector the downloader really waits for on the csr site', async () => {
    const outcome = outcomes.get('csr-xhr-news')!;
    expect(outcome.waitSelector).not.toBeNull();
    expect(outcome.renderCount).toBeLessThanOrEqual(4);
    const page = await downloader.client.renderPage({
      url: outcome.sampledUrlList[0],
      wait_selector: outcome.waitSelector,
      should_store: false,
      min_interval_ms: 100,
      timeout_ms: 10_000,
    });
    expect(page.fetch_status).toBe('done');
    expect(page.rendered_html).toContain('<article');
  });

  it('reached the sites only through the downloader, and nothing robots.txt disallows', () => {
    const entries = corpus.accessLog.list();
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => entry.userAgent.includes(CRAWLER_PRODUCT_TOKEN))).toBe(true);
    const disallowed = corpus.domains.find(
      (domain) => domain.entry.name === 'robots-disallow-all',
    )!;
    expect(corpus.accessLog.list(disallowed.host).map((entry) => entry.path)).toEqual([
      '/robots.txt',
    ]);
  });

  it('reports the robots.txt it read and the interval it computed', () => {
    const ssr = outcomes.get('ssr-articles')!;
    expect(ssr.robotsTxt).toContain('Sitemap:');
    expect(ssr.minIntervalMs).toBe(100);
    expect(ssr.language).toBe('en');
    expect(outcomes.get('partial-shell')!.waitSelector).not.toBeNull();
  });
});
