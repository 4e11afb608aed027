import { minimumIntervalMs } from './minimum-interval';
import { RobotsFile } from './robots-file';
import {
  DEFAULT_SAMPLING_POLICY,
  SamplingPolicyError,
  samplingPolicyWith,
  thresholdsFor,
} from './sampling-policy';

describe('minimumIntervalMs — the one max(robots Crawl-delay, language default)', () => {
  const policy = samplingPolicyWith({
    languageIndependentIntervalMs: 1000,
    languageTable: {
      en: { defaultIntervalMs: 800, isCalibrated: true },
      ja: { defaultIntervalMs: 3000, isCalibrated: true },
    },
    undeclaredLanguage: { defaultIntervalMs: 1200, isCalibrated: true },
  });

  it('takes the larger of the two', () => {
    expect(minimumIntervalMs({ crawlDelaySeconds: 5, language: 'en' }, policy)).toBe(5000);
    expect(minimumIntervalMs({ crawlDelaySeconds: 1, language: 'ja' }, policy)).toBe(3000);
    expect(minimumIntervalMs({ crawlDelaySeconds: 0.5, language: 'en' }, policy)).toBe(800);
    expect(minimumIntervalMs({ crawlDelaySeconds: 2.25, language: 'en' }, policy)).toBe(2250);
  });

  it('uses the language-independent default before the language is known, and for an unlisted language', () => {
    expect(minimumIntervalMs({ crawlDelaySeconds: null, language: undefined }, policy)).toBe(1000);
    expect(minimumIntervalMs({ crawlDelaySeconds: null, language: 'th' }, policy)).toBe(1000);
    expect(minimumIntervalMs({ crawlDelaySeconds: null, language: null }, policy)).toBe(1200);
  });

  it('reads Crawl-delay from our group of robots.txt (the downloader’s product token)', () => {
    const robots = new RobotsFile(
      'http://site.test',
      'User-agent: *\nCrawl-delay: 2\n\nUser-agent: RenderCrawler\nCrawl-delay: 7\nDisallow: /private/\n',
    );
    expect(robots.crawlDelaySeconds).toBe(7);
    expect(robots.isAllowed('http://site.test/private/x')).toBe(false);
    expect(robots.isAllowed('http://site.test/public')).toBe(true);
    expect(new RobotsFile('http://site.test', null).isAllowed('http://site.test/any')).toBe(true);
  });
});

describe('SamplingPolicy', () => {
  it('has calibrated defaults for the corpus languages and merges per-language thresholds', () => {
    expect(Object.keys(DEFAULT_SAMPLING_POLICY.languageTable).sort()).toEqual([
      'de',
      'en',
      'es',
      'fr',
      'ja',
      'zh',
    ]);
    const policy = samplingPolicyWith({
      languageTable: {
        de: {
          defaultIntervalMs: 1000,
          isCalibrated: true,
          thresholds: { ssrMaxRenderOnlyShare: 0.1 },
        },
      },
    });
    expect(thresholdsFor(policy, 'de').ssrMaxRenderOnlyShare).toBe(0.1);
    expect(thresholdsFor(policy, 'de').csrMinRenderOnlyShare).toBe(
      DEFAULT_SAMPLING_POLICY.thresholds.csrMinRenderOnlyShare,
    );
  });

  it('refuses settings that make no sense, naming them', () => {
    expect(() =>
      samplingPolicyWith({
        thresholds: { ssrMaxRenderOnlyShare: 0.8, csrMinRenderOnlyShare: 0.7 },
      }),
    ).toThrow(/ssrMaxRenderOnlyShare must be below/);
    expect(() => samplingPolicyWith({ thresholds: { majorityShare: 1.5 } })).toThrow(
      SamplingPolicyError,
    );
    expect(() => samplingPolicyWith({ maxSamplePageCount: 2, agreeingPageCount: 3 })).toThrow(
      /agreeingPageCount/,
    );
    expect(() =>
      samplingPolicyWith({
        languageTable: { 'en-US': { defaultIntervalMs: 1, isCalibrated: true } },
      }),
    ).toThrow(/primary subtag/);
  });
});
