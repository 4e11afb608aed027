import { startDemoSite, type DemoSite } from '../../../scripts/demo-site/demo-site';
import { CRAWLER_PRODUCT_TOKEN } from '../../common/config/crawler-identity';
import {
  startTestDownloader,
  type TestDownloader,
} from '../../downloader/testing/downloader-test-harness';
import { decisionOfRule } from '../rules/rule-book';
import { SamplingProcedure } from '../sampling/sampling-procedure';
import { samplingPolicyWith, withUniformIntervalMs } from '../sampling/sampling-policy';
import type { ApiEndpointHintTaskDocument, DomainRuleDocument } from '../storage/sampler-documents';
import { openTestCore, type TestCore } from '../testing/sampler-core-fixture';
import {
  startRuleCollectingScheduler,
  type RuleCollectingScheduler,
} from '../testing/rule-collecting-scheduler';
import { waitFor } from '../testing/wait-for';

/*
 * API endpoint hints verified for real: the demo's API-backed client-rendered hosts, a real
 * downloader (HTTP, rate limit, robots, Chromium) that every sampler request goes through, the
 * sampler's core on real LMDB — its domains sampled by the real procedure — and a scheduler
 * router over HTTP that receives the rules. The sampler's clock is manual (the retry period
 * passes in a line); the downloader requests run in real time.
 */

const API_HOST = '127.0.0.61';
const MISMATCH_HOST = '127.0.0.62';

jest.setTimeout(120_000);

let demo: DemoSite;
let downloader: TestDownloader;
let scheduler: RuleCollectingScheduler;
let fixture: TestCore;
let apiBase: string;
let mismatchBase: string;

const policy = withUniformIntervalMs(
  samplingPolicyWith({ plainTimeoutMs: 5000, renderTimeoutMs: 15_000, delayedContentWaitMs: 3000 }),
  100,
);

function hintFor(base: string, page: string, endpoint: string, contentPointer = '') {
  return {
    domain: new URL(base).hostname,
    page_url: `${base}${page}`,
    endpoint_url: `${base}${endpoint}`,
    content_pointer: contentPointer,
    matched_character_count: 40,
    text_character_count: 44,
    observed_at: '2026-08-15T06:59:00Z',
  };
}

async function ruleOf(domain: string): Promise<DomainRuleDocument> {
  return (await fixture.core.rules.get(domain)) as DomainRuleDocument;
}

function hintsOf(domain: string): Promise<ApiEndpointHintTaskDocument[]> {
  return fixture.core.apiHintVerifier.hintsOf(domain);
}

const apiPathsRequested = (host: string) =>
  demo.accessLog
    .list(host)
    .map((entry) => entry.path)
    .filter((path) => path.startsWith('/api/page'));

beforeAll(async () => {
  demo = await startDemoSite({
    hosts: [API_HOST, MISMATCH_HOST],
    clientRenderedHosts: [API_HOST, MISMATCH_HOST],
  });
  [apiBase, mismatchBase] = demo.baseUrls;
  downloader = await startTestDownloader({
    allowDestinations: [API_HOST, MISMATCH_HOST],
    extraArguments: ['--default-min-interval-ms', '100'],
  });
  scheduler = await startRuleCollectingScheduler();
  fixture = await openTestCore({
    domainSampler: new SamplingProcedure({ downloader: downloader.client, policy }),
    pageRenderer: downloader.client,
    submitRules: scheduler.submitRules,
    settings: { samplingPolicy: policy, apiHintRetryHours: 24, samplingConcurrency: 2 },
  });
  fixture.core.poster?.start();
  // Both hosts are sampled by the real procedure: an app shell filled from /api/page is csr.
  for (const base of [apiBase, mismatchBase]) {
    await fixture.core.enqueueDomain(new URL(base).hostname, [`${base}/articles/1`]);
  }
  await fixture.core.loop.tick();
  await fixture.core.loop.settle();
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await scheduler?.close();
  await downloader?.dispose();
  await demo?.stop();
});

it('samples the API-backed hosts as csr render rules first', async () => {
  for (const host of [API_HOST, MISMATCH_HOST]) {
    expect(await ruleOf(host)).toMatchObject({
      verdict: 'csr',
      render_strategy: 'render',
      api_endpoint: null,
    });
  }
});

it('verifies consistent hints through the downloader and posts an api rule', async () => {
  const before = await ruleOf(API_HOST);
  await fixture.core.submitApiEndpointHints({
    hint_list: [
      hintFor(apiBase, '/articles/1', '/api/page?path=%2Farticles%2F1'),
      hintFor(apiBase, '/articles/2', '/api/page?path=%2Farticles%2F2'),
    ],
  });
  const requestedBefore = apiPathsRequested(API_HOST).length;
  expect(await fixture.core.apiHintVerifier.checkDomain(API_HOST)).toBe('verified');

  const expectedEndpoint = {
    page_url_pattern: `^http://127\\.0\\.0\\.61:${new URL(apiBase).port}(?<path>/[^?#]*)$`,
    endpoint_url_template: `${apiBase}/api/page?path={path}`,
    content_pointer: '',
  };
  const rule = await ruleOf(API_HOST);
  expect(rule).toMatchObject({
    verdict: 'csr',
    render_strategy: 'api',
    api_endpoint: expectedEndpoint,
    wait_selector: before.wait_selector,
  });
  expect(Date.parse(rule.verified_at)).toBeGreaterThan(Date.parse(before.verified_at));
  // The endpoint of each sample page was fetched — by the downloader, never by the sampler.
  expect(apiPathsRequested(API_HOST).length).toBeGreaterThan(requestedBefore);
  expect(apiPathsRequested(API_HOST)).toEqual(
    expect.arrayContaining(['/api/page?path=%2Farticles%2F1', '/api/page?path=%2Farticles%2F2']),
  );
  expect(
    demo.accessLog.list(API_HOST).every((entry) => entry.userAgent.includes(CRAWLER_PRODUCT_TOKEN)),
  ).toBe(true);

  const posted = await waitFor('the api rule at the scheduler', () =>
    scheduler.rules.find((row) => row.domain === API_HOST && row.render_strategy === 'api'),
  );
  expect(posted).toMatchObject({ api_endpoint: expectedEndpoint, verified_at: rule.verified_at });
  for (const hint of await hintsOf(API_HOST)) {
    expect(hint).toMatchObject({ verification_state: 'verified', check_count: 1 });
    expect(hint.verification_note).toMatch(/the endpoint carries \d+ of \d+ characters/);
  }
});

it('confirms a new hint the api rule already reproduces without a request', async () => {
  const requestCount = demo.accessLog.list(API_HOST).length;
  const verifiedAt = (await ruleOf(API_HOST)).verified_at;
  await fixture.core.submitApiEndpointHints({
    hint_list: [hintFor(apiBase, '/articles/3', '/api/page?path=%2Farticles%2F3')],
  });
  expect(await fixture.core.apiHintVerifier.checkDomain(API_HOST)).toBe('covered_by_rule');
  expect(demo.accessLog.list(API_HOST).length).toBe(requestCount);
  expect((await ruleOf(API_HOST)).verified_at).toBe(verifiedAt);
  const third = (await hintsOf(API_HOST)).find((hint) => hint.page_url.endsWith('/articles/3'));
  expect(third?.verification_state).toBe('verified');
});

it('leaves the rule render when the endpoint JSON does not carry the page, and retries only after the period', async () => {
  await fixture.core.submitApiEndpointHints({
    // The heading alone: the page shows its links and body text too.
    hint_list: [hintFor(mismatchBase, '/articles/1', '/api/page?path=%2Farticles%2F1', '/heading')],
  });
  expect(await fixture.core.apiHintVerifier.checkDomain(MISMATCH_HOST)).toBe('failed');
  expect(await ruleOf(MISMATCH_HOST)).toMatchObject({
    render_strategy: 'render',
    api_endpoint: null,
  });
  const [hint] = await hintsOf(MISMATCH_HOST);
  expect(hint).toMatchObject({ verification_state: 'failed', check_count: 1 });
  expect(hint.verification_note).toMatch(/the endpoint carries only \d+ of \d+ characters/);
  expect(apiPathsRequested(MISMATCH_HOST)).toContain('/api/page?path=%2Farticles%2F1');

  // Not before the retry period (24 h here)…
  expect(await fixture.core.apiHintVerifier.checkDomain(MISMATCH_HOST)).toBe('nothing_due');
  fixture.clock.advanceSeconds(23 * 3600);
  expect(await fixture.core.apiHintVerifier.checkDomain(MISMATCH_HOST)).toBe('nothing_due');
  // …then checked again, and it still fails.
  fixture.clock.advanceSeconds(3600);
  expect(await fixture.core.apiHintVerifier.checkDomain(MISMATCH_HOST)).toBe('failed');
  expect((await hintsOf(MISMATCH_HOST))[0].check_count).toBe(2);
  expect(
    scheduler.rules.some((row) => row.domain === MISMATCH_HOST && row.render_strategy === 'api'),
  ).toBe(false);

  const counts = await fixture.core.metrics.apiEndpointVerificationCount.get();
  const countOf = (outcome: string) =>
    counts.values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
  expect(countOf('verified')).toBe(1);
  expect(countOf('failed')).toBe(2);
});

it('sends an api rule back to render when its re-verification fails', async () => {
  // As if the heading-only mapping had been verified once: the site changed since.
  const rule = await ruleOf(MISMATCH_HOST);
  const apiRule = await fixture.core.rules.record({
    ...decisionOfRule(rule),
    fetchStrategy: {
      renderStrategy: 'api',
      apiEndpoint: {
        page_url_pattern: `^${mismatchBase.replace(/\./g, '\\.')}(?<path>/[^?#]*)$`,
        endpoint_url_template: `${mismatchBase}/api/page?path={path}`,
        content_pointer: '/heading',
      },
    },
  });
  fixture.clock.advanceSeconds(24 * 3600);
  expect(await fixture.core.apiHintVerifier.checkDomain(MISMATCH_HOST)).toBe('failed');
  const demoted = await ruleOf(MISMATCH_HOST);
  expect(demoted).toMatchObject({ verdict: 'csr', render_strategy: 'render', api_endpoint: null });
  await waitFor('the render rule at the scheduler', () =>
    scheduler.rules.find(
      (row) =>
        row.domain === MISMATCH_HOST &&
        row.render_strategy === 'render' &&
        Date.parse(row.verified_at) > Date.parse(apiRule.verified_at),
    ),
  );
});

it('waits with the hints of a domain that has no decided rule', async () => {
  await fixture.core.submitApiEndpointHints({
    hint_list: [hintFor('http://unsampled.example', '/items/1', '/api/items/1')],
  });
  expect(await fixture.core.apiHintVerifier.checkDomain('unsampled.example')).toBe('not_eligible');
  const [hint] = await hintsOf('unsampled.example');
  expect(hint.verification_state).toBe('pending');
  expect(await fixture.core.rules.get('unsampled.example')).toBeUndefined();
});

it('keeps the api mapping when the verdict is re-decided csr or partial, not when it is ssr', async () => {
  const rule = await ruleOf(API_HOST);
  const resampled = await fixture.core.rules.record({
    ...decisionOfRule(rule),
    verdict: 'partial',
  });
  expect(resampled).toMatchObject({ render_strategy: 'api', api_endpoint: rule.api_endpoint });
  const ssr = await fixture.core.rules.record({ ...decisionOfRule(rule), verdict: 'ssr' });
  expect(ssr).toMatchObject({ render_strategy: 'render', api_endpoint: null });
});
